// Typed decoding of built-in bodies (src/decoding): a Deployment with a full pod template decoded
// from its JSON text as a create does (strict, Warn/Strict), from the object as a YAML body or a
// merge patch is (serialised first), and converted as a strategic merge patch's result is. Run
// alone with `node bench/typed-decoding.ts`; `npm run bench` includes its section.
import { decodeBuiltin } from '../src/decoding/builtin-decoder.ts';

function deployment(): Record<string, unknown> {
  const container = (i: number) => ({
    name: `c${i}`,
    image: 'registry.example.com/app:1.2.3',
    args: ['--port=8080', '--verbose'],
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    env: [{ name: 'MODE', value: 'fast' }, { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
    resources: { limits: { cpu: '1000m', memory: '512Mi' }, requests: { cpu: '250m', memory: '256Mi' } },
    readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 5 },
    volumeMounts: [{ name: 'data', mountPath: '/data' }],
  });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'front' }, annotations: { note: 'x'.repeat(64) } },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [container(0), container(1)], volumes: [{ name: 'data', emptyDir: {} }], nodeSelector: { disk: 'ssd' } },
      },
    },
  };
}

/** Mean µs per call of `fn` over `n` calls, after a warm-up. */
function perCall(n: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(n, 2000); i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - t0) * 1000) / n;
}

export function measureTypedDecoding(n = 10000) {
  const object = deployment();
  const json = JSON.stringify(object);
  const base = { group: 'apps', version: 'v1', kind: 'Deployment', object };
  let failures = 0;
  const check = (r: ReturnType<typeof decodeBuiltin>) => {
    if (r.ok !== true) failures++;
  };
  return {
    bytes: json.length,
    fromTextUs: perCall(n, () => check(decodeBuiltin({ ...base, json, strict: true }))),
    fromTextIgnoreUs: perCall(n, () => check(decodeBuiltin({ ...base, json, strict: false }))),
    fromObjectUs: perCall(n, () => check(decodeBuiltin({ ...base, strict: true }))),
    converterUs: perCall(n, () => check(decodeBuiltin({ ...base, strict: true, via: 'unstructured' }))),
    failures,
  };
}

/** Markdown for RESULTS.md. */
export async function typedDecodingSection(): Promise<string> {
  const r = measureTypedDecoding();
  const us = (v: number) => v.toFixed(1);
  return `## Typed decoding of built-ins

One Deployment (${r.bytes} bytes of JSON: two containers with ports, env, probes, quantities); mean per call in one
process, after a warm-up.

| case | µs per call |
| --- | ---: |
| create/update body from its JSON text, strict (fieldValidation Warn/Strict) | ${us(r.fromTextUs)} |
| the same, fieldValidation=Ignore | ${us(r.fromTextIgnoreUs)} |
| from the object (YAML and protobuf bodies, JSON and merge patches: serialised first, key order kept) | ${us(r.fromObjectUs)} |
| strategic merge patch result (the unstructured converter) | ${us(r.converterUs)} |

Failures: ${r.failures} (must be 0). Target: under 100 µs for a body of this size.
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await typedDecodingSection());
  process.exit(0);
}
