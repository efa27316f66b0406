// Offline validation of the deployment files (no Docker engine, no cluster), the `deploy` step of `npm test`.
// Every check is listed in the header of its function; failures are collected and printed together.
//   compose     docker-compose config -q (Debian's 1.29, when installed) and the start-order rules
//   kubernetes  base and every overlay rendered (kubectl kustomize, or the small renderer below when kubectl is
//               missing), every object checked against the Kubernetes JSON schemas (kubernetes-models), then
//               the pod rules, the network policies against the call graph found in the code, ingress, HPA
//   images      every app built with the Dockerfile's own steps (tools/deploy/build-image.mjs) and checked
//               for what it carries; one service and the gateway started from their image trees
//   --no-images skips the image builds (a few seconds per app)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

type Obj = Record<string, any>;
const problems: string[] = [];
const problem = (message: string) => problems.push(message);
const has = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;
const require = createRequire(import.meta.url);

/** Apps deployed as their own process: every apps/<name> with a src/main.ts. */
const APPS = readdirSync('apps').filter((dir) => existsSync(`apps/${dir}/src/main.ts`)).sort();
const SERVICES = APPS.filter((app) => app !== 'gateway');

// ---------------------------------------------------------------------------------------------------
// The call graph, from the code: app A calls service B when A's sources read B_GRPC_ADDR.
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === '__tests__' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) && !/\.(test|spec)\.ts$/.test(entry.name) ? [path] : [];
  });
}
export function callGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const app of APPS) {
    const callees = new Set<string>();
    for (const file of sourceFiles(`apps/${app}/src`)) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/\b([A-Z]+)_GRPC_ADDR\b/g)) {
        const callee = name.toLowerCase();
        if (callee !== app && SERVICES.includes(callee)) callees.add(callee);
      }
    }
    graph.set(app, callees);
  }
  return graph;
}

// ---------------------------------------------------------------------------------------------------
// compose
//   - `docker-compose config -q` passes (skipped with a note when docker-compose is not installed);
//   - every app runs as a service built with APP=<its name>; every service has a healthcheck except the
//     one-shot migrations; every depends_on entry names a condition;
//   - every service with a database waits for its `<app>-migrate` one-shot (service_completed_successfully,
//     `node main.js migrate`, restart "no") and runs with MIGRATE_ON_BOOT=false; Postgres and NATS are
//     waited for as service_healthy; the gateway waits for every service to be healthy;
//   - the notifications service's SMTP_URL points at a mail sink service of the file;
//   - each app sets exactly the *_GRPC_ADDR variables of the services its code calls.
function checkCompose(): void {
  const file = 'deploy/compose/docker-compose.yml';
  if (has('docker-compose')) {
    const res = spawnSync('docker-compose', ['-f', file, 'config', '-q'], { encoding: 'utf8' });
    if (res.status !== 0) problem(`docker-compose config: ${res.stderr.trim()}`);
  } else {
    console.log('docker-compose not installed: structural compose checks only');
  }
  const services = (parse(readFileSync(file, 'utf8'), { merge: true }) as { services: Record<string, Obj> }).services;
  for (const app of APPS) if (!services[app]) problem(`compose has no ${app} service`);
  for (const [name, service] of Object.entries(services)) {
    const where = `compose ${name}`;
    const app = service.build?.args?.APP;
    const migrate = name.endsWith('-migrate');
    if (app && app !== name.replace(/-migrate$/, '')) problem(`${where} builds APP=${app}`);
    if (app && !APPS.includes(app)) problem(`${where}: apps/${app}/src/main.ts missing`);
    if (!migrate && (!service.healthcheck || service.healthcheck.disable)) problem(`${where}: no healthcheck`);
    const dependsOn = service.depends_on ?? {};
    if (Array.isArray(dependsOn)) problem(`${where}: depends_on without conditions`);
    for (const [dep, spec] of Object.entries<Obj>(Array.isArray(dependsOn) ? {} : dependsOn)) {
      if (!services[dep]) problem(`${where} depends on unknown ${dep}`);
      const expected = dep.endsWith('-migrate') ? 'service_completed_successfully' : 'service_healthy';
      if (spec?.condition !== expected) problem(`${where}: depends_on ${dep} should be ${expected}`);
    }
    if (migrate) {
      if (JSON.stringify(service.command) !== JSON.stringify(['node', 'main.js', 'migrate'])) problem(`${where}: command is not node main.js migrate`);
      if (service.restart !== 'no') problem(`${where}: a one-shot needs restart "no"`);
    }
    if (app && !migrate && service.environment?.DATABASE_URL) {
      if (!dependsOn[`${name}-migrate`]) problem(`${where}: no ${name}-migrate one-shot to wait for`);
      if (String(service.environment.MIGRATE_ON_BOOT) !== 'false') problem(`${where}: MIGRATE_ON_BOOT must be false (the one-shot migrates)`);
      for (const dep of ['postgres', 'nats']) if (!dependsOn[dep]) problem(`${where}: does not wait for ${dep}`);
    }
  }
  for (const app of SERVICES) {
    if (!services.gateway?.depends_on?.[app]) problem(`compose gateway does not wait for ${app}`);
  }
  for (const [app, callees] of callGraph()) {
    const set = Object.keys(services[app]?.environment ?? {}).filter((n) => n.endsWith('_GRPC_ADDR')).map((n) => n.replace(/_GRPC_ADDR$/, '').toLowerCase());
    if (set.sort().join() !== [...callees].sort().join()) problem(`compose ${app}: *_GRPC_ADDR ${set} vs the code's calls ${[...callees]}`);
  }
  const smtp = services.notifications?.environment?.SMTP_URL;
  const sink = smtp && /^smtps?:\/\/(?:[^@/]*@)?([^:/?]+)/.exec(smtp)?.[1];
  if (!sink || !services[sink]) problem(`compose notifications: SMTP_URL (${smtp}) does not point at a mail sink service`);
  else if (!services.notifications.depends_on?.[sink]) problem(`compose notifications does not wait for ${sink}`);
}

// ---------------------------------------------------------------------------------------------------
// Rendering. kubectl kustomize when installed; otherwise a renderer for the subset our kustomizations
// use (resources, labels, images, namespace, JSON 6902 patches). With kubectl, both run and must agree.
function renderWithKubectl(dir: string): Obj[] | undefined {
  const res = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  if (res.status !== 0) {
    problem(`kubectl kustomize ${dir}: ${res.stderr.trim()}`);
    return undefined;
  }
  return parseAllDocuments(res.stdout).map((d) => d.toJS());
}

const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'PersistentVolume', 'StorageClass', 'IngressClass']);
function renderBuiltIn(dir: string): Obj[] {
  const k = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Obj;
  const known = new Set(['apiVersion', 'kind', 'resources', 'labels', 'images', 'namespace', 'patches']);
  for (const key of Object.keys(k)) if (!known.has(key)) problem(`${dir}: the built-in renderer does not know "${key}" (install kubectl)`);
  let docs: Obj[] = (k.resources ?? []).flatMap((r: string) => {
    const path = join(dir, r);
    if (statSync(path).isDirectory()) return renderBuiltIn(path);
    return parseAllDocuments(readFileSync(path, 'utf8')).map((d) => d.toJS()).filter(Boolean);
  });
  for (const { pairs } of k.labels ?? []) {
    for (const d of docs) d.metadata.labels = { ...d.metadata.labels, ...pairs };
  }
  const podSpecs = (d: Obj) => (d.spec?.template?.spec ? [d.spec.template.spec] : []);
  for (const image of k.images ?? []) {
    for (const spec of docs.flatMap(podSpecs)) {
      for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
        const [name, tag] = c.image.split(':');
        if (name !== image.name) continue;
        c.image = `${image.newName ?? name}:${image.newTag ?? tag ?? 'latest'}`;
      }
    }
  }
  if (k.namespace) for (const d of docs) if (!CLUSTER_SCOPED.has(d.kind)) d.metadata.namespace = k.namespace;
  for (const { target, patch } of k.patches ?? []) {
    const matches = docs.filter((d) => (!target.kind || d.kind === target.kind) && (!target.name || d.metadata.name === target.name));
    if (!matches.length) problem(`${dir}: patch target ${JSON.stringify(target)} matches nothing`);
    for (const d of matches) {
      for (const op of parse(patch) as Obj[]) {
        const keys = op.path.split('/').slice(1).map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
        const last = keys.pop();
        const parent = keys.reduce((o: Obj | undefined, key: string) => o?.[key], d);
        if (!parent || (op.op !== 'add' && !(last in parent))) problem(`${dir}: patch path ${op.path} missing in ${d.kind}/${d.metadata.name}`);
        else if (op.op === 'remove') delete parent[last];
        else parent[last] = op.value;
      }
    }
  }
  docs = docs.map((d) => JSON.parse(JSON.stringify(d)));
  return docs;
}

function render(dir: string): Obj[] {
  const builtIn = renderBuiltIn(dir);
  if (!has('kubectl')) return builtIn;
  const rendered = renderWithKubectl(dir) ?? [];
  // The built-in renderer is the fallback of machines without kubectl: keep it honest.
  const key = (d: Obj) => `${d.kind}/${d.metadata?.namespace ?? ''}/${d.metadata?.name}`;
  const ours = new Map(builtIn.map((d) => [key(d), d]));
  for (const d of rendered) {
    const mine = ours.get(key(d));
    if (!mine) problem(`${dir}: built-in renderer lacks ${key(d)}`);
    else if (JSON.stringify(sortKeys(mine)) !== JSON.stringify(sortKeys(d))) problem(`${dir}: built-in renderer differs from kubectl on ${key(d)}`);
  }
  if (builtIn.length !== rendered.length) problem(`${dir}: built-in renderer made ${builtIn.length} objects, kubectl ${rendered.length}`);
  return rendered;
}
const sortKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Obj)[k])])) : v;

// ---------------------------------------------------------------------------------------------------
// Schema: every object against the Kubernetes OpenAPI schema of its apiVersion/kind (kubernetes-models
// ships them compiled for ajv, for Kubernetes 1.3x). An unknown kind is a problem too.
async function schemaCheck(where: string, doc: Obj): Promise<void> {
  const [group, version] = doc.apiVersion.includes('/') ? doc.apiVersion.split('/') : ['', doc.apiVersion];
  const modulePath = `kubernetes-models/${group ? `${group}/` : ''}${version}/${doc.kind}`;
  let Model: any;
  try {
    Model = (await import(modulePath))[doc.kind];
  } catch {
    problem(`${where}: no schema for ${doc.apiVersion} ${doc.kind}`);
    return;
  }
  try {
    new Model(doc).validate();
  } catch (err) {
    problem(`${where}: schema: ${(err as Error).message}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Pods (every Deployment):
//   - the restricted Pod Security level, for init containers too: runAsNonRoot, seccomp RuntimeDefault
//     (pod or container), allowPrivilegeEscalation false, capabilities drop ALL (nothing added but
//     NET_BIND_SERVICE), not privileged, no host namespaces or hostPath; plus readOnlyRootFilesystem;
//   - every container (init too) has cpu and memory requests and a memory limit;
//   - app containers: liveness, readiness and startup probes; a preStop delay; a terminationGracePeriod
//     above preStop + SHUTDOWN_TIMEOUT_MS; an image;
//   - prometheus.io annotations name a container port and a path;
//   - the *_GRPC_ADDR variables are exactly the call graph's edges of that app.
function checkPods(where: string, docs: Obj[], graph: Map<string, Set<string>>): void {
  const deployments = docs.filter((d) => d.kind === 'Deployment');
  const config = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'storefront-config')?.data ?? {};
  for (const app of APPS) if (!deployments.some((d) => d.metadata.name === app)) problem(`${where}: no Deployment ${app}`);
  for (const d of deployments) {
    const name = d.metadata.name;
    const at = `${where} Deployment ${name}`;
    const pod = d.spec.template.spec;
    const podSc = pod.securityContext ?? {};
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problem(`${at}: host namespaces`);
    for (const v of pod.volumes ?? []) if (v.hostPath) problem(`${at}: hostPath volume ${v.name}`);
    const containers = [...(pod.initContainers ?? []).map((c: Obj) => ({ ...c, init: true })), ...pod.containers];
    for (const c of containers) {
      const cat = `${at}/${c.name}`;
      const sc = c.securityContext ?? {};
      if ((sc.runAsNonRoot ?? podSc.runAsNonRoot) !== true) problem(`${cat}: runAsNonRoot`);
      if ((sc.runAsUser ?? podSc.runAsUser) === 0) problem(`${cat}: runs as uid 0`);
      const seccomp = (sc.seccompProfile ?? podSc.seccompProfile)?.type;
      if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') problem(`${cat}: seccompProfile RuntimeDefault`);
      if (sc.allowPrivilegeEscalation !== false) problem(`${cat}: allowPrivilegeEscalation false`);
      if (sc.privileged) problem(`${cat}: privileged`);
      if (!sc.capabilities?.drop?.includes('ALL')) problem(`${cat}: capabilities.drop [ALL]`);
      for (const cap of sc.capabilities?.add ?? []) if (cap !== 'NET_BIND_SERVICE') problem(`${cat}: adds capability ${cap}`);
      if (sc.readOnlyRootFilesystem !== true) problem(`${cat}: readOnlyRootFilesystem`);
      if (!c.image) problem(`${cat}: no image`);
      const r = c.resources ?? {};
      if (!r.requests?.cpu || !r.requests?.memory || !r.limits?.memory) problem(`${cat}: cpu/memory requests and a memory limit required`);
      if (c.init) continue;
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) if (!c[probe]) problem(`${cat}: no ${probe}`);
      const preStop = c.lifecycle?.preStop;
      const delay = preStop?.sleep?.seconds ?? Number(preStop?.exec?.command?.find((a: string) => /^\d+$/.test(a)) ?? NaN);
      if (!(delay > 0)) problem(`${cat}: no preStop delay`);
      const env = Object.fromEntries((c.env ?? []).map((e: Obj) => [e.name, e.value]));
      const shutdown = Number(env.SHUTDOWN_TIMEOUT_MS ?? config.SHUTDOWN_TIMEOUT_MS ?? 10_000) / 1000;
      const grace = pod.terminationGracePeriodSeconds ?? 30;
      if (!(grace > delay + shutdown)) problem(`${cat}: terminationGracePeriodSeconds ${grace} <= preStop ${delay} + shutdown ${shutdown}`);
      const addrs = new Set(Object.keys(env).filter((n) => n.endsWith('_GRPC_ADDR')).map((n) => n.replace(/_GRPC_ADDR$/, '').toLowerCase()));
      const expected = graph.get(name) ?? new Set();
      const extra = [...addrs].filter((a) => !expected.has(a));
      const missing = [...expected].filter((a) => !addrs.has(a));
      if (extra.length || missing.length) problem(`${cat}: *_GRPC_ADDR ${[...addrs]} vs the code's calls ${[...expected]}`);
    }
    const annotations = d.spec.template.metadata?.annotations ?? {};
    if (annotations['prometheus.io/scrape'] !== 'true') problem(`${at}: no prometheus.io/scrape annotation`);
    const port = Number(annotations['prometheus.io/port']);
    if (!pod.containers.some((c: Obj) => (c.ports ?? []).some((p: Obj) => p.containerPort === port))) problem(`${at}: prometheus.io/port ${port} is no container port`);
    if (annotations['prometheus.io/path'] !== '/metrics') problem(`${at}: prometheus.io/path /metrics`);
    if (!docs.some((s) => s.kind === 'Service' && matches(s.spec.selector, d.spec.template.metadata.labels))) problem(`${at}: no Service selects it`);
  }
}
const matches = (selector: Obj | undefined, labels: Obj) => Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);

// ---------------------------------------------------------------------------------------------------
// Network policies, evaluated (not only present): for every pair of pods of the namespace (every app,
// Postgres, NATS and an unlabelled stranger) and outside peers (the ingress controller, Prometheus,
// another namespace), a connection is allowed when an egress rule of the source and an ingress rule of
// the target both admit it. It must be allowed exactly for:
//   caller -> service:50051 along the call graph (gateway -> every service); app -> NATS:4222;
//   service -> Postgres:5432; ingress controller -> gateway:8080; Prometheus -> every app's :9464;
//   every pod -> cluster DNS:53.
interface Peer { name: string; namespace: string; nsLabels: Obj; labels: Obj }
function selectsPeer(peer: Obj, from: Peer, policyNamespace: string): boolean {
  if (peer.ipBlock) return false;
  if (peer.namespaceSelector) {
    if (!matchSelector(peer.namespaceSelector, from.nsLabels)) return false;
  } else if (from.namespace !== policyNamespace) return false;
  return peer.podSelector ? matchSelector(peer.podSelector, from.labels) : true;
}
const matchSelector = (selector: Obj, labels: Obj) =>
  matches(selector.matchLabels, labels) &&
  (selector.matchExpressions ?? []).every((e: Obj) => (e.operator === 'In' ? e.values.includes(labels[e.key]) : e.operator === 'Exists' ? e.key in labels : true));
function admits(policies: Obj[], pod: Peer, other: Peer, port: number, protocol: string, direction: 'Ingress' | 'Egress'): boolean {
  const applying = policies.filter((p) => (p.metadata.namespace ?? 'default') === pod.namespace && matchSelector(p.spec.podSelector, pod.labels) && (p.spec.policyTypes ?? ['Ingress']).includes(direction));
  if (!applying.length) return true;
  return applying.some((p) =>
    (p.spec[direction === 'Ingress' ? 'ingress' : 'egress'] ?? []).some((rule: Obj) => {
      const peers = rule[direction === 'Ingress' ? 'from' : 'to'];
      const peerOk = !peers || peers.some((peer: Obj) => selectsPeer(peer, other, pod.namespace));
      const portOk = !rule.ports || rule.ports.some((r: Obj) => (r.protocol ?? 'TCP') === protocol && (r.port === undefined || r.port === port || (r.endPort && port >= r.port && port <= r.endPort)));
      return peerOk && portOk;
    }),
  );
}
function checkNetworkPolicies(where: string, docs: Obj[], graph: Map<string, Set<string>>): void {
  const policies = docs.filter((d) => d.kind === 'NetworkPolicy');
  const namespace = docs.find((d) => d.kind === 'Deployment')?.metadata.namespace ?? 'default';
  const nsLabels = { 'kubernetes.io/metadata.name': namespace };
  const pod = (name: string, labels: Obj = { 'app.kubernetes.io/name': name }): Peer => ({ name, namespace, nsLabels, labels });
  const outside = (name: string, ns: string, labels: Obj = {}): Peer => ({ name, namespace: ns, nsLabels: { 'kubernetes.io/metadata.name': ns }, labels });
  const deployments = docs.filter((d) => d.kind === 'Deployment');
  const apps = deployments.map((d) => ({ ...pod(d.metadata.name, d.spec.template.metadata.labels), database: JSON.stringify(d).includes('DATABASE_URL') }));
  const postgres = pod('postgres');
  const nats = pod('nats');
  const stranger = pod('stranger', { app: 'stranger' });
  const ingress = outside('ingress controller', 'ingress-nginx', { 'app.kubernetes.io/name': 'ingress-nginx' });
  const prometheus = outside('prometheus', 'monitoring', { 'app.kubernetes.io/name': 'prometheus' });
  const otherNamespace = outside('a pod of another namespace', 'elsewhere', { 'app.kubernetes.io/name': 'gateway' });
  const dns = outside('cluster DNS', 'kube-system', { 'k8s-app': 'kube-dns' });
  const allowed = (from: Peer, to: Peer, port: number, protocol = 'TCP') =>
    (from.namespace !== namespace || admits(policies, from, to, port, protocol, 'Egress')) &&
    (to.namespace !== namespace || admits(policies, to, from, port, protocol, 'Ingress'));
  const expect = (from: Peer, to: Peer, port: number, want: boolean, protocol = 'TCP') => {
    if (allowed(from, to, port, protocol) !== want) problem(`${where} NetworkPolicy: ${from.name} -> ${to.name}:${port}/${protocol} should be ${want ? 'allowed' : 'denied'}`);
  };
  for (const target of apps) {
    const grpc = target.name === 'gateway' ? 8080 : 50051;
    for (const source of [...apps, postgres, nats, stranger, otherNamespace]) {
      const calls = source.name === 'gateway' ? target.name !== 'gateway' : (graph.get(source.name)?.has(target.name) ?? false);
      expect(source, target, grpc, calls && source.name !== target.name);
    }
    expect(ingress, target, grpc, target.name === 'gateway');
    expect(prometheus, target, 9464, true);
    expect(stranger, target, 9464, false);
    expect(target, nats, 4222, true);
    expect(target, postgres, 5432, target.database);
    expect(target, dns, 53, true, 'UDP');
    expect(target, otherNamespace, 50051, false);
  }
  expect(stranger, nats, 4222, false);
  expect(stranger, postgres, 5432, false);
  expect(ingress, postgres, 5432, false);
  expect(stranger, dns, 53, true, 'UDP');
  if (!policies.some((p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && !p.spec.ingress && !p.spec.egress && ['Ingress', 'Egress'].every((t) => p.spec.policyTypes?.includes(t)))) {
    problem(`${where}: no default-deny NetworkPolicy (empty podSelector, Ingress and Egress, no rules)`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Ingress, site URL, autoscaling:
//   - an Ingress routes to the gateway Service with TLS for every host it serves;
//   - SHOP_SITE_URL is set (https in an overlay) and its host is the Ingress host; the gateway trusts
//     the proxy (TRUST_PROXY) so X-Forwarded-Proto from the ingress counts;
//   - every HPA targets an existing Deployment, which sets no replicas of its own.
function checkIngressAndScaling(where: string, docs: Obj[], overlay: boolean): void {
  const ingresses = docs.filter((d) => d.kind === 'Ingress');
  const toGateway = ingresses.filter((i) => JSON.stringify(i.spec).includes('"service":{"name":"gateway"'));
  if (!toGateway.length) problem(`${where}: no Ingress for the gateway`);
  const siteUrl = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'storefront-config')?.data?.SHOP_SITE_URL;
  if (!siteUrl) problem(`${where}: SHOP_SITE_URL not set`);
  else if (overlay && !siteUrl.startsWith('https://')) problem(`${where}: SHOP_SITE_URL should be https`);
  for (const i of toGateway) {
    const tlsHosts = new Set((i.spec.tls ?? []).flatMap((t: Obj) => (t.secretName ? t.hosts : [])));
    for (const rule of i.spec.rules ?? []) if (!tlsHosts.has(rule.host)) problem(`${where} Ingress ${i.metadata.name}: host ${rule.host} without TLS`);
    if (siteUrl && !(i.spec.rules ?? []).some((r: Obj) => r.host === new URL(siteUrl).host)) problem(`${where}: SHOP_SITE_URL ${siteUrl} is not a host of Ingress ${i.metadata.name}`);
  }
  const gateway = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'gateway');
  if (gateway && !gateway.spec.template.spec.containers[0].env?.some((e: Obj) => e.name === 'TRUST_PROXY' && e.value)) problem(`${where}: gateway does not trust the ingress (TRUST_PROXY)`);
  for (const hpa of docs.filter((d) => d.kind === 'HorizontalPodAutoscaler')) {
    const target = docs.find((d) => d.kind === hpa.spec.scaleTargetRef.kind && d.metadata.name === hpa.spec.scaleTargetRef.name);
    if (!target) problem(`${where} HPA ${hpa.metadata.name}: no target`);
    else if (target.spec.replicas !== undefined) problem(`${where}: Deployment ${target.metadata.name} fixes replicas while HPA ${hpa.metadata.name} scales it`);
  }
}

async function checkKubernetes(): Promise<void> {
  const graph = callGraph();
  console.log(`call graph (from apps/*/src *_GRPC_ADDR): ${[...graph].map(([a, c]) => `${a} -> ${[...c].sort().join(',') || '-'}`).join('; ')}`);
  const targets = ['deploy/k8s/base', ...readdirSync('deploy/k8s/overlays').map((o) => join('deploy/k8s/overlays', o))];
  for (const dir of targets) {
    const docs = render(dir).filter(Boolean);
    const where = relative('deploy/k8s', dir);
    for (const doc of docs) await schemaCheck(`${where} ${doc.kind}/${doc.metadata?.name}`, doc);
    checkPods(where, docs, graph);
    checkNetworkPolicies(where, docs, graph);
    checkIngressAndScaling(where, docs, dir !== 'deploy/k8s/base');
    if (dir !== 'deploy/k8s/base') {
      for (const d of docs) {
        for (const c of [...(d.spec?.template?.spec?.initContainers ?? []), ...(d.spec?.template?.spec?.containers ?? [])]) {
          if (!/:[\w.-]+$/.test(c.image) || c.image.endsWith(':latest')) problem(`${where} ${d.metadata.name}/${c.name}: image ${c.image} not pinned`);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Dockerfile: dependency layer (lockfile + manifests, npm ci) before the source is copied; the build
// is tools/deploy/build-image.mjs; HEALTHCHECK; numeric non-root USER.
function checkDockerfile(): void {
  const dockerfile = readFileSync('deploy/docker/Dockerfile', 'utf8');
  const at = (text: string) => dockerfile.indexOf(text);
  for (const expected of ['COPY package.json package-lock.json', 'npm ci', 'COPY . .', 'node tools/deploy/build-image.mjs', 'HEALTHCHECK', 'CMD ["node", "main.js"]']) {
    if (at(expected) < 0) problem(`Dockerfile lacks "${expected}"`);
  }
  if (!(at('npm ci') < at('COPY . .'))) problem('Dockerfile: npm ci must run before the source is copied (dependency layer)');
  if (!/^USER \d+(:\d+)?$/m.test(dockerfile)) problem('Dockerfile: USER must be a numeric non-root uid');
}

// ---------------------------------------------------------------------------------------------------
// Images, built with the Dockerfile's steps into a temporary folder per app:
//   - the build succeeds; node_modules holds exactly the packages the bundle imports and theirs: no
//     PGlite, nothing only dev dependencies need (package-lock's `dev` flag), nothing another app alone needs;
//   - every imported package loads from the image tree (nothing missing at run time);
//   - catalog runs from its tree as the image would (migrate, then serve with MIGRATE_ON_BOOT=false,
//     NODE_ENV=production, real Postgres and NATS) until its healthcheck.mjs passes, and the gateway
//     from its tree until its healthcheck.mjs (/readyz) passes. Skipped with a note when Postgres or NATS
//     is not reachable.
async function checkImages(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'storefront-images-'));
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;
  try {
    for (const app of APPS) {
      const out = join(root, app);
      const res = spawnSync(process.execPath, ['tools/deploy/build-image.mjs', app, out, '--link'], { encoding: 'utf8' });
      if (res.status !== 0) {
        problem(`image ${app}: build failed: ${res.stderr.trim()}`);
        continue;
      }
      const installed = readdirSync(join(out, 'node_modules')).flatMap((n) => (n.startsWith('@') ? readdirSync(join(out, 'node_modules', n)).map((s) => `${n}/${s}`) : [n]));
      for (const name of installed) {
        if (/pglite/.test(name)) problem(`image ${app}: carries ${name}`);
        // npm marks what only dev dependencies need `dev: true` (a dev dependency that a runtime
        // package also needs, e.g. @types/node for protobufjs, is not).
        if (lock[`node_modules/${name}`]?.dev) problem(`image ${app}: carries ${name}, needed by dev dependencies only`);
      }
      const { dependencies } = JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'));
      const probe = join(out, '.load-check.mjs');
      writeFileSync(probe, `${Object.keys(dependencies).map((d) => `await import(${JSON.stringify(d)});`).join('\n')}\n`);
      const load = spawnSync(process.execPath, [probe], { encoding: 'utf8', cwd: out });
      rmSync(probe);
      if (load.status !== 0) problem(`image ${app}: a dependency does not load from the image tree: ${load.stderr.trim().split('\n').slice(0, 3).join(' ')}`);
      console.log(`image ${app}: ${Object.keys(dependencies).length} direct dependencies, ${installed.length} packages, ${(treeBytes(out) / 1e6).toFixed(0)} MB`);
    }
    await bootCheck(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const treeBytes = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => sum + (e.isDirectory() ? treeBytes(join(dir, e.name)) : e.isFile() ? statSync(join(dir, e.name)).size : 0), 0);

const DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
async function bootCheck(root: string): Promise<void> {
  if (!existsSync(join(root, 'catalog')) || !existsSync(join(root, 'gateway'))) return;
  const pg = require('pg');
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await admin.connect();
  } catch {
    console.log('Postgres not reachable: image boot check skipped');
    return;
  }
  const database = `deploy_check_${process.pid}`;
  const url = new URL(DATABASE_URL);
  url.pathname = `/${database}`;
  const grpcPort = 52000 + (process.pid % 1000);
  const httpPort = 53000 + (process.pid % 1000);
  const base = { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'warn', METRICS_PORT: '-1', NATS_URL, EVENTS_STREAM: 'DEPLOYCHECK', EVENTS_SUBJECT_PREFIX: 'deploycheck' };
  const service = { ...base, DATABASE_URL: url.toString(), GRPC_PORT: String(grpcPort), CUSTOMERS_GRPC_ADDR: '127.0.0.1:9' };
  const children: ChildProcess[] = [];
  try {
    await admin.query(`create database ${database}`);
    const catalog = join(root, 'catalog');
    const migrate = spawnSync(process.execPath, ['main.js', 'migrate'], { cwd: catalog, env: service, encoding: 'utf8', timeout: 60_000 });
    if (migrate.status !== 0) {
      problem(`image catalog: migrate failed: ${migrate.stderr.trim()}`);
      return;
    }
    const start = (dir: string, env: Obj) => {
      const child = spawn(process.execPath, ['main.js'], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      children.push(child);
      return () => stderr;
    };
    const healthy = async (app: string, env: Obj, stderr: () => string) => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (spawnSync(process.execPath, ['healthcheck.mjs'], { cwd: join(root, app), env, encoding: 'utf8' }).status === 0) return;
        await new Promise((r) => setTimeout(r, 250));
      }
      problem(`image ${app}: healthcheck.mjs did not pass within 60 s: ${stderr().trim().slice(-400)}`);
    };
    await healthy('catalog', service, start(catalog, { ...service, MIGRATE_ON_BOOT: 'false' }));
    const addresses = Object.fromEntries(SERVICES.map((s) => [`${s.toUpperCase()}_GRPC_ADDR`, s === 'catalog' ? `127.0.0.1:${grpcPort}` : '127.0.0.1:9']));
    const gatewayEnv = { ...base, ...addresses, PORT: String(httpPort), HOST: '127.0.0.1', SESSION_SECRET: 'x'.repeat(40), SHOP_SITE_URL: 'https://shop.example.com' };
    await healthy('gateway', gatewayEnv, start(join(root, 'gateway'), gatewayEnv));
    console.log('image catalog and gateway started from their image trees; healthcheck.mjs passed for both');
  } finally {
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : (c.once('exit', r), c.kill('SIGTERM'))))));
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

const started = Date.now();
checkCompose();
await checkKubernetes();
checkDockerfile();
const imagesStarted = Date.now();
if (!process.argv.includes('--no-images')) await checkImages();
console.log(`manifests ${((imagesStarted - started) / 1000).toFixed(1)} s, images ${((Date.now() - imagesStarted) / 1000).toFixed(1)} s`);
if (problems.length) {
  console.error(`deployment files invalid:\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}
console.log(`deployment files valid (compose, kustomize base + overlays, schemas, pods, network policies, ingress${process.argv.includes('--no-images') ? '' : ', images'}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);

