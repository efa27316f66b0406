#!/usr/bin/env node
// The npm registry mirror these machines use only carries Linux builds of
// packages shipped per platform (@swc/core-darwin-arm64 and the like are 404),
// so `npm install` leaves them out of package-lock.json and `npm ci` then
// refuses the lockfile ("Missing: ... from lock file"). This adds an entry for
// every missing optional platform package, marked with its os/cpu, so `npm ci`
// skips it on other platforms exactly as it would with a complete lockfile.
// Run after `npm install` changes the lockfile: node tools/lockfile-platforms.cjs
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const OS = { darwin: 'darwin', win32: 'win32', linux: 'linux', freebsd: 'freebsd', android: 'android', openbsd: 'openbsd', sunos: 'sunos', aix: 'aix', netbsd: 'netbsd' };
const CPU = { arm64: 'arm64', aarch64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', armv7: 'arm', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', mips64el: 'mips64el' };

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.map((t) => OS[t]).find(Boolean);
  const cpu = tokens.map((t) => CPU[t]).find(Boolean);
  return { os, cpu, libc: tokens.includes('musl') ? 'musl' : tokens.includes('gnu') || tokens.includes('gnueabihf') ? 'glibc' : undefined };
}

let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = key ? `${key}/node_modules/${dep}` : `node_modules/${dep}`;
    if (lock.packages[base] || lock.packages[`node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) continue; // not a platform package: leave it to npm
    lock.packages[`node_modules/${dep}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added++;
  }
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform package entries added`);
