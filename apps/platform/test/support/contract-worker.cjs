// Runs Stoplight Prism's router and response validator outside Jest's module
// system (Prism's CommonJS build requires ESM-only packages, which plain Node loads).
const { parentPort } = require('node:worker_threads');
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http');
const route = require('@stoplight/prism-http/dist/router').default;
const { validateOutput } = require('@stoplight/prism-http/dist/validator');

const documents = new Map();

// The committed document (libs/client/openapi.json) is parsed at once, while the
// stack starts; a served document equal to it (servers aside) reuses the result.
const committedPath = require('node:path').resolve(__dirname, '../../../../libs/client/openapi.json');
const committed = JSON.parse(require('node:fs').readFileSync(committedPath, 'utf8'));
const withoutServers = (doc) => JSON.stringify({ ...doc, servers: undefined });
const committedKey = withoutServers(committed);
const committedOperations = getHttpOperationsFromSpec(committed);
committedOperations.catch(() => undefined);

async function operationsOf(baseUrl) {
  let operations = documents.get(baseUrl);
  if (!operations) {
    operations = fetch(`${baseUrl}/shop/v1/openapi.json`).then(async (res) => {
      if (res.status !== 200) throw new Error(`openapi.json: ${res.status}`);
      const served = await res.json();
      return withoutServers(served) === committedKey ? committedOperations : getHttpOperationsFromSpec(served);
    });
    documents.set(baseUrl, operations);
  }
  return operations;
}

async function check({ baseUrl, method, path, status, headers, body, partial }) {
  const resources = await operationsOf(baseUrl);
  const url = new URL(path, baseUrl);
  const query = {};
  url.searchParams.forEach((value, key) => (query[key] = [...(query[key] ?? []), value]));
  const routed = route({ resources, input: { method: method.toLowerCase(), url: { path: url.pathname, query } } });
  if (routed._tag === 'Left') return { routed: false, problems: [] };
  const result = validateOutput({ resource: routed.right, element: { statusCode: status, headers, body } });
  const problems =
    result._tag === 'Right'
      ? []
      : result.left
          .filter((d) => d.severity === 0 || /status code/i.test(d.message))
          // `_fields` responses are partial by design: only their status is checked.
          .filter((d) => !partial || d.path?.[0] !== 'body')
          .map((d) => `${(d.path ?? []).join('.')}: ${d.message}`);
  return { routed: true, operation: `${routed.right.method.toUpperCase()} ${routed.right.path}`, problems };
}

parentPort.on('message', ({ id, request }) => {
  check(request).then(
    (result) => parentPort.postMessage({ id, result }),
    (err) => parentPort.postMessage({ id, error: String(err?.stack ?? err) }),
  );
});
