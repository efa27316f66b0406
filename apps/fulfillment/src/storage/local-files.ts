import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, resolve, sep } from 'node:path';
import { fileNotFound, pathOutsideStore } from '../domain/downloads/errors';
import type { FileStorage } from '../domain/downloads/types';

/**
 * FileStorage over a local folder (FILES_DIR). A product's `file` is a path
 * relative to it; absolute paths, `..` segments, NUL and symlinks leading out
 * of the folder are refused. Nothing is ever fetched from a URL.
 */
export class LocalFileStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private async locate(path: string): Promise<string> {
    const clean = path.replace(/\\/g, '/');
    if (!clean || clean.includes('\0') || isAbsolute(clean) || /^[a-z]+:/i.test(clean) || clean.split('/').includes('..')) {
      throw pathOutsideStore();
    }
    const full = resolve(this.root, clean);
    if (!full.startsWith(this.root + sep)) throw pathOutsideStore();
    let real: string;
    let rootReal: string;
    try {
      [real, rootReal] = await Promise.all([realpath(full), realpath(this.root)]);
    } catch {
      throw fileNotFound();
    }
    if (!real.startsWith(rootReal + sep)) throw pathOutsideStore();
    return real;
  }

  async stat(path: string): Promise<{ size: number }> {
    const full = await this.locate(path);
    const info = await stat(full).catch(() => null);
    if (!info?.isFile()) throw fileNotFound();
    return { size: info.size };
  }

  async read(path: string, offset: number, length: number): Promise<Buffer> {
    const full = await this.locate(path);
    const handle = await open(full, 'r').catch(() => {
      throw fileNotFound();
    });
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }
}
