// The Python `kubernetes` client (Debian's python3-kubernetes, a generated client nobody here wrote)
// walked through CRUD of the common built-ins over cluster.listen(): test/python/crud_walk.py does
// the walk and prints a JSON report; this file asserts on it exactly, and compares every object the
// client read back with what the cluster stored at that resourceVersion.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';

const PYTHON = '/usr/bin/python3';
const WALK = new URL('./python/crud_walk.py', import.meta.url).pathname;
const NS = 'py-walk';

const pythonClientAvailable = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import kubernetes'], { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
})();

if (!pythonClientAvailable) {
  console.warn(`${PYTHON} cannot import kubernetes (apt-get install python3-kubernetes): the Python client walk is skipped`);
}

interface ApiError {
  status: number;
  reason: string;
  body: Record<string, unknown>;
}

interface WalkReport {
  steps: Array<[string, number]>;
  objects: Record<string, Record<string, any>>;
  typed: Record<string, unknown>;
  watch: Array<[string, string, Record<string, string>]>;
  errors: Record<string, ApiError | null>;
}

const KINDS = ['ConfigMap', 'Secret', 'Service', 'Pod', 'Deployment', 'Job', 'Ingress', 'Role', 'RoleBinding'];

describe.skipIf(!pythonClientAvailable)('the Python kubernetes client over cluster.listen()', () => {
  let cluster: FakeCluster;
  let report: WalkReport;

  beforeAll(async () => {
    cluster = await createFakeCluster();
    const { kubeconfig } = await cluster.listen();
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-python-'));
    writeFileSync(join(dir, 'kubeconfig'), kubeconfig);
    // Asynchronous: the cluster answers on this event loop while the script runs.
    const { stdout } = await promisify(execFile)(PYTHON, [WALK, join(dir, 'kubeconfig'), NS], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, HOME: dir } });
    report = JSON.parse(stdout) as WalkReport;
  }, 90_000);
  afterAll(() => cluster?.close());

  it('gets the status code of each verb: 201 for a create, 200 otherwise', () => {
    const verbs = (kind: string, deleted: boolean) => [
      [`${kind} create`, 201],
      [`${kind} read`, 200],
      [`${kind} list`, 200],
      [`${kind} patch strategic`, 200],
      [`${kind} patch merge`, 200],
      [`${kind} replace`, 200],
      ...(deleted ? [[`${kind} delete`, 200]] : []),
    ];
    expect(report.steps).toEqual([...verbs('Namespace', false), ...KINDS.flatMap((k) => verbs(k, true)),
      ['ConfigMap list all namespaces', 200],
      ['ConfigMap delete with options', 200],
      ['Namespace delete', 200],
    ]);
  });

  it('decodes every kind into its typed model: the list finds it by label, the replace returns its labels', () => {
    expect(report.typed).toEqual({
      Namespace: { 'kubernetes.io/metadata.name': NS, walk: 'namespace', strategic: 'yes', merge: 'yes', replaced: 'yes' },
      'Namespace listed': [NS],
      ConfigMap: { walk: 'configmap' },
      'ConfigMap listed': ['settings'],
      Secret: { walk: 'secret', replaced: 'yes' },
      'Secret listed': ['creds'],
      Service: { walk: 'service', replaced: 'yes' },
      'Service listed': ['web'],
      Pod: { walk: 'pod', replaced: 'yes' },
      'Pod listed': ['solo'],
      Deployment: { walk: 'deployment' },
      'Deployment listed': ['web'],
      Job: { walk: 'job', replaced: 'yes' },
      'Job listed': ['once'],
      Ingress: { walk: 'ingress', replaced: 'yes' },
      'Ingress listed': ['front'],
      Role: { walk: 'role', replaced: 'yes' },
      'Role listed': ['reader'],
      RoleBinding: { walk: 'rolebinding', replaced: 'yes' },
      'RoleBinding listed': ['readers'],
      'ConfigMaps by field': [[NS, 'seed']],
    });
  });

  it('reads back each object exactly as the cluster stored it', () => {
    for (const kind of ['Namespace', ...KINDS]) {
      const read = report.objects[kind]!;
      const stored = cluster.history
        .all({ kind, name: read.metadata.name })
        .find((c) => c.after?.metadata?.resourceVersion === read.metadata.resourceVersion)?.after;
      expect(stored, kind).toBeDefined();
      expect(read, kind).toEqual(JSON.parse(JSON.stringify(stored)));
    }
  });

  it('applies strategic merge, JSON merge and the replace as the server does for each kind', () => {
    const o = report.objects;
    expect(o.ConfigMap!.data).toEqual({ b: '2', c: '3', d: '4' });
    expect(o.Secret!.data).toEqual({ user: Buffer.from('admin').toString('base64'), pass: 'czNjcjN0' });
    expect(o.Secret!.metadata.annotations).toEqual({ rotated: 'no' });
    // Service ports merge by port number (patchMergeKey), the selector map is merged.
    expect(o.Service!.spec.ports).toEqual([
      { name: 'metrics', port: 9090, protocol: 'TCP', targetPort: 9090 },
      { name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 },
    ]);
    expect(o.Service!.spec.selector).toEqual({ app: 'web', tier: 'front' });
    expect(o.Pod!.spec.containers.map((c: { image: string }) => c.image)).toEqual(['nginx:1.28']);
    expect(o.Pod!.metadata.annotations).toEqual({ note: 'merged' });
    expect(o.Deployment!.spec.replicas).toBe(1);
    expect(o.Deployment!.spec.template.spec.containers.map((c: { image: string }) => c.image)).toEqual(['nginx:1.28']);
    expect(o.Job!.spec).toMatchObject({ parallelism: 2, activeDeadlineSeconds: 600, backoffLimit: 1 });
    expect(o.Ingress!.spec.ingressClassName).toBe('nginx');
    expect(o.Role!.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    expect(o.Role!.metadata.annotations).toEqual({ note: 'strategic' });
    expect(o.RoleBinding!.subjects).toEqual([{ kind: 'User', name: 'ada', apiGroup: 'rbac.authorization.k8s.io' }]);
  });

  it('deletes with DeleteOptions in the body: the object is gone before its namespace', () => {
    const deleted = cluster.history.all({ kind: 'ConfigMap', name: 'seed', type: 'DELETED' });
    expect(deleted.map((c) => c.namespace)).toEqual([NS]);
    const namespaceDeletion = cluster.history.all({ kind: 'Namespace', name: NS }).find((c) => c.after?.metadata?.deletionTimestamp);
    expect(namespaceDeletion).toBeDefined();
    expect(deleted[0]!.revision).toBeLessThan(namespaceDeletion!.revision);
  });

  it('watches ADDED, MODIFIED and DELETED events, decoded into models', () => {
    expect(report.watch).toEqual([
      // The namespace's own ConfigMap, from the root-CA publisher, arrives first with the initial state.
      ['ADDED', 'kube-root-ca.crt', { 'ca.crt': expect.stringMatching(/^-----BEGIN CERTIFICATE-----\n/) }],
      ['ADDED', 'seed', { seed: 'yes' }],
      ['ADDED', 'settings', { a: '1' }],
      ['MODIFIED', 'settings', { a: '1', b: '2' }],
      ['MODIFIED', 'settings', { b: '2', c: '3' }],
      ['MODIFIED', 'settings', { b: '2', c: '3', d: '4' }],
      ['DELETED', 'settings', { b: '2', c: '3', d: '4' }],
    ]);
  });

  it('raises ApiException with the Status body on 404, 409 and 422', () => {
    const status = (code: number, reason: string, message: string, details: Record<string, unknown>) => ({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason,
      details,
      code,
    });
    const invalidName =
      `Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', ` +
      `and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
    expect(report.errors).toEqual({
      'read missing': { status: 404, reason: 'Not Found', body: status(404, 'NotFound', 'configmaps "missing" not found', { name: 'missing', kind: 'configmaps' }) },
      'create twice': { status: 409, reason: 'Conflict', body: status(409, 'AlreadyExists', 'configmaps "seed" already exists', { name: 'seed', kind: 'configmaps' }) },
      'create invalid': {
        status: 422,
        reason: 'Unprocessable Entity',
        body: status(422, 'Invalid', `ConfigMap "Not_Valid" is invalid: metadata.name: ${invalidName}`, {
          name: 'Not_Valid',
          kind: 'ConfigMap',
          causes: [{ reason: 'FieldValueInvalid', message: invalidName, field: 'metadata.name' }],
        }),
      },
    });
  });
});
