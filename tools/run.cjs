#!/usr/bin/env node
// Entry point of every npm script: makes sure a recent enough Node (>= 22.17)
// and the dependencies are there, then runs the given TypeScript tool with it.
// Written in CommonJS for old Node versions, so a fresh machine with Node 20
// still gets a clear path: Node 22 is fetched from the npm registry into .tools/.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const MINIMUM = [22, 17];

function recentEnough(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1]);
}

function nodeBinary() {
  if (recentEnough(process.version)) return process.execPath;
  const local = path.join(ROOT, '.tools', 'node_modules', 'node', 'bin', 'node');
  if (!fs.existsSync(local)) {
    console.error(`Storefront needs Node >= ${MINIMUM.join('.')}; this is ${process.version}.`);
    console.error('Installing Node 22 from the npm registry into .tools/ (once) ...');
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', path.join(ROOT, '.tools'), 'node@22'], {
      stdio: 'inherit',
      cwd: ROOT,
    });
  }
  return local;
}

function withNodeOnPath(node) {
  return { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
}

function dependenciesInstalled() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  return fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs - 1000;
}

const node = nodeBinary();
const env = withNodeOnPath(node);
if (!dependenciesInstalled()) {
  console.error('Installing dependencies (npm ci) ...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: ROOT, env });
}

const [script, ...args] = process.argv.slice(2);
// The production runtime's AsyncLocalStorage (deploy/docker/Dockerfile): async context frames, not promise hooks.
const child = spawn(node, ['--experimental-async-context-frame', '--import', 'tsx', path.join(ROOT, script), ...args], { stdio: 'inherit', cwd: ROOT, env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(signal ? 1 : code ?? 1));
