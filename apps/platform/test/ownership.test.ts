import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

// `nx affected` marks a service for a change to its proto or manifest only
// through the `owned` named input of its project.json (docs/conventions.md,
// "Ownership and nx affected"); a service that forgets the line is silently
// skipped. Checked from the files, since running nx per file is slow.
const root = new URL('../../../', import.meta.url);
const apps = readdirSync(new URL('apps/', root)).filter((dir) => existsSync(new URL(`apps/${dir}/src/main.ts`, root)));

describe('ownership kit', () => {
  it.each(apps)('%s owns its proto folder, proto lib and manifest (owned input) and has a README and a CODEOWNERS block', (app) => {
    const project = JSON.parse(readFileSync(new URL(`apps/${app}/project.json`, root), 'utf8'));
    const owned: string[] = project.namedInputs?.owned ?? [];
    if (existsSync(new URL(`deploy/k8s/base/${app}.yaml`, root))) expect(owned).toContain(`{workspaceRoot}/deploy/k8s/base/${app}.yaml`);
    if (existsSync(new URL(`proto/shop/${app}`, root))) {
      expect(owned).toContain(`{workspaceRoot}/proto/shop/${app}/**/*`);
      // Its generated proto lib (written by npm run proto:gen) owns the protos too, and the team owns it.
      const lib = JSON.parse(readFileSync(new URL(`libs/proto/${app}/project.json`, root), 'utf8'));
      expect(lib.namedInputs?.owned).toContain(`{workspaceRoot}/proto/shop/${app}/**/*`);
      expect(readFileSync(new URL('.github/CODEOWNERS', root), 'utf8')).toMatch(new RegExp(`^/libs/proto/${app}/\\s+@storefront/${app}-team$`, 'm'));
    }
    expect(existsSync(new URL(`apps/${app}/README.md`, root))).toBe(true);
    expect(readFileSync(new URL('.github/CODEOWNERS', root), 'utf8')).toContain(`/apps/${app}/`);
  });
});
