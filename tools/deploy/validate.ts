// Offline validation of the deployment files (no Docker engine, no cluster):
// - docker-compose: `docker-compose config -q` when the binary exists, plus structural checks;
// - Kubernetes: `kubectl kustomize` of every overlay when kubectl exists (else the base files),
//   then every Deployment must have an image, probes and resource requests;
// - the Dockerfile builds and runs with the same commands the README documents.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

const problems: string[] = [];
const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

function checkCompose(): void {
  const file = 'deploy/compose/docker-compose.yml';
  if (has('docker-compose')) {
    const res = spawnSync('docker-compose', ['-f', file, 'config', '-q'], { encoding: 'utf8' });
    if (res.status !== 0) problems.push(`docker-compose config: ${res.stderr.trim()}`);
  } else {
    console.log('docker-compose not installed: structural checks only');
  }
  const compose = parse(readFileSync(file, 'utf8'), { merge: true }) as { services: Record<string, any> };
  for (const [name, service] of Object.entries(compose.services)) {
    const app = service.build?.args?.APP;
    if (!app) continue;
    if (app !== name) problems.push(`compose service ${name} builds APP=${app}`);
    if (!existsSync(`apps/${app}/src/main.ts`)) problems.push(`compose service ${name}: apps/${app}/src/main.ts missing`);
  }
  for (const app of ['gateway', 'customers', 'catalog', 'fulfillment', 'payments', 'orders', 'cart']) {
    if (!compose.services[app]) problems.push(`compose has no ${app} service`);
  }
}

function kubernetesDocuments(): any[] {
  const overlays = readdirSync('deploy/k8s/overlays');
  if (!has('kubectl')) {
    console.log('kubectl not installed: checking deploy/k8s/base files without kustomize');
    return readdirSync('deploy/k8s/base')
      .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
      .flatMap((f) => parseAllDocuments(readFileSync(join('deploy/k8s/base', f), 'utf8')).map((d) => d.toJS()));
  }
  return overlays.flatMap((overlay) => {
    const res = spawnSync('kubectl', ['kustomize', join('deploy/k8s/overlays', overlay)], { encoding: 'utf8' });
    if (res.status !== 0) {
      problems.push(`kustomize ${overlay}: ${res.stderr.trim()}`);
      return [];
    }
    return parseAllDocuments(res.stdout).map((d) => d.toJS());
  });
}

function checkKubernetes(): void {
  const docs = kubernetesDocuments();
  const deployments = docs.filter((d) => d?.kind === 'Deployment');
  if (deployments.length < 4) problems.push(`expected a Deployment per app, found ${deployments.length}`);
  for (const d of deployments) {
    for (const c of d.spec.template.spec.containers) {
      const where = `Deployment ${d.metadata.name}/${c.name}`;
      if (!c.image) problems.push(`${where}: no image`);
      if (!c.readinessProbe || !c.livenessProbe) problems.push(`${where}: readiness and liveness probes required`);
      if (!c.resources?.requests) problems.push(`${where}: resource requests required`);
    }
  }
}

function checkDockerfile(): void {
  const dockerfile = readFileSync('deploy/docker/Dockerfile', 'utf8');
  for (const expected of ['npm ci', 'node tools/build/bundle.mjs', 'CMD ["node", "main.js"]']) {
    if (!dockerfile.includes(expected)) problems.push(`Dockerfile does not run "${expected}"`);
  }
}

checkCompose();
checkKubernetes();
checkDockerfile();
if (problems.length) {
  console.error(`deployment files invalid:\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}
console.log('deployment files valid (compose, kustomize overlays, Dockerfile)');
