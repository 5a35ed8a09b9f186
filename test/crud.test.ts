// Create / get / update / patch / delete through the real client, with the exact Status bodies.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;

beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
});
afterEach(() => cluster.close());

const cm = (name: string, data: Record<string, string> = { a: '1' }): k8s.V1ConfigMap => ({ metadata: { name }, data });

describe('bootstrap', () => {
  it('starts with the four system namespaces, Active, with the kubernetes finalizer', async () => {
    const list = await core.listNamespace();
    expect(list.items.map((n) => n.metadata?.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    for (const ns of list.items) {
      expect(ns.status?.phase).toBe('Active');
      expect(ns.spec?.finalizers).toEqual(['kubernetes']);
    }
  });

  it('reports Kubernetes v1.36 on /version', async () => {
    const info = await cluster.kubeConfig.makeApiClient(k8s.VersionApi).getCode();
    expect(info).toMatchObject({ major: '1', minor: '36', gitVersion: 'v1.36.0' });
  });
});

describe('create', () => {
  it('stores the object with server-set uid, creationTimestamp and resourceVersion', async () => {
    const before = Date.now();
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('c1') });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.metadata?.namespace).toBe('default');
    expect(Number(created.metadata?.resourceVersion)).toBeGreaterThan(0);
    // Seconds precision, UTC: client-node parses it into a Date.
    const ts = created.metadata!.creationTimestamp!.getTime();
    expect(ts % 1000).toBe(0);
    expect(ts).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(created.metadata?.generation).toBeUndefined();
    const read = await core.readNamespacedConfigMap({ name: 'c1', namespace: 'default' });
    expect(read).toEqual(created);
  });

  it('answers 201 with the object', async () => {
    const res = await core.createNamespacedConfigMapWithHttpInfo({ namespace: 'default', body: cm('c201') });
    expect(res.httpStatusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('ignores client-sent uid and generation, and starts workload generation at 1', async () => {
    const dep = await apps.createNamespacedDeployment({
      namespace: 'default',
      body: {
        metadata: { name: 'web', uid: 'not-mine', generation: 7 },
        spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      },
    });
    expect(dep.metadata?.uid).not.toBe('not-mine');
    expect(dep.metadata?.generation).toBe(1);
  });

  it('fills generateName with five characters of the apiserver alphabet', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const c = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'gen-' } } });
      expect(c.metadata?.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      names.add(c.metadata!.name!);
    }
    expect(names.size).toBe(20);
  });

  it('refuses a duplicate name with 409 AlreadyExists', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('dup') });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: cm('dup') }), {
      code: 409,
      reason: 'AlreadyExists',
      message: 'configmaps "dup" already exists',
      details: { name: 'dup', kind: 'configmaps' },
    });
    // A valid Deployment: validation runs before storage, so an invalid one would get 422 instead.
    const deployment = { metadata: { name: 'd' }, spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment });
    await expectStatus(apps.createNamespacedDeployment({ namespace: 'default', body: deployment }), {
      code: 409,
      reason: 'AlreadyExists',
      message: 'deployments.apps "d" already exists',
      details: { name: 'd', group: 'apps', kind: 'deployments' },
    });
  });

  it('answers 404 for a namespace that does not exist', async () => {
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'nope', body: cm('x') }), {
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "nope" not found',
      details: { name: 'nope', kind: 'namespaces' },
    });
  });

  it('validates names with the real message and cause', async () => {
    const body = await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: cm('Bad_Name') }), { code: 422, reason: 'Invalid' });
    const detail =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    expect(body.message).toBe(`ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": ${detail}`);
    expect(body.details).toEqual({
      name: 'Bad_Name',
      kind: 'ConfigMap',
      causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_Name": ${detail}`, field: 'metadata.name' }],
    });
  });

  it('requires a name or generateName', async () => {
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { data: {} } }), {
      code: 422,
      reason: 'Invalid',
      message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
      details: { kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] },
    });
  });

  it('validates label keys and values', async () => {
    const body = await expectStatus(
      core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'l', labels: { 'bad key!': 'v' } } } }),
      { code: 422, reason: 'Invalid' },
    );
    expect(body.message).toBe(
      `ConfigMap "l" is invalid: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
  });

  it('answers 400 when the body namespace differs from the URL', async () => {
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x', namespace: 'kube-system' } } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('answers 400 when the body apiVersion is not the endpoint’s', async () => {
    // Another version of the same kind decodes and converts; the handler's apiVersion check refuses it.
    await expectStatus(apps.createNamespacedDeployment({ namespace: 'default', body: { apiVersion: 'apps/v1beta2', kind: 'Deployment', metadata: { name: 'x' } } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'the API version in the data (apps/v1beta2) does not match the expected API version (apps/v1)',
    });
  });

  it('answers 400 when the body names a kind its group version does not have, as the scheme does', async () => {
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } } }), {
      code: 400,
      reason: 'BadRequest',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    });
  });

  it('answers 500 with no reason when resourceVersion is set, as the real store does', async () => {
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'rv', resourceVersion: '5' } } }), {
      code: 500,
      message: 'resourceVersion should not be set on objects to be created',
    }).then((body) => expect(body).not.toHaveProperty('reason'));
  });

  it('persists nothing on dryRun=All but still detects conflicts', async () => {
    const before = await core.listNamespacedConfigMap({ namespace: 'default' });
    const res = await core.createNamespacedConfigMapWithHttpInfo({ namespace: 'default', body: { metadata: { generateName: 'dry-' } }, dryRun: 'All' });
    expect(res.httpStatusCode).toBe(201);
    expect(res.data.metadata?.name).toMatch(/^dry-/);
    expect(res.data.metadata?.uid).toBeTruthy();
    expect(res.data.metadata?.resourceVersion).toBeUndefined();
    const after = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(after.items).toHaveLength(before.items.length);
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('taken') });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: cm('taken'), dryRun: 'All' }), { code: 409, reason: 'AlreadyExists' });
  });

  it('rejects dryRun values other than All with 422 on CreateOptions', async () => {
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: cm('x'), dryRun: 'Server' }), {
      code: 422,
      reason: 'Invalid',
      message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Server"]: supported values: "All"',
      details: { group: 'meta.k8s.io', kind: 'CreateOptions', causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: ["Server"]: supported values: "All"', field: 'dryRun' }] },
    });
  });
});

describe('update', () => {
  it('bumps the resourceVersion and keeps server-owned fields', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('u1') });
    const updated = await core.replaceNamespacedConfigMap({
      name: 'u1',
      namespace: 'default',
      body: { ...created, data: { a: '2' }, metadata: { ...created.metadata, creationTimestamp: new Date(0) } },
    });
    expect(Number(updated.metadata?.resourceVersion)).toBeGreaterThan(Number(created.metadata?.resourceVersion));
    expect(updated.metadata?.creationTimestamp).toEqual(created.metadata?.creationTimestamp);
    expect(updated.metadata?.uid).toBe(created.metadata?.uid);
    expect(updated.data).toEqual({ a: '2' });
  });

  it('is a no-op when nothing changes: same resourceVersion', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('same') });
    const again = await core.replaceNamespacedConfigMap({ name: 'same', namespace: 'default', body: created });
    expect(again.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    expect(list.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('answers 409 Conflict for a stale resourceVersion', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('stale') });
    await core.replaceNamespacedConfigMap({ name: 'stale', namespace: 'default', body: { ...created, data: { a: 'new' } } });
    await expectStatus(core.replaceNamespacedConfigMap({ name: 'stale', namespace: 'default', body: { ...created, data: { a: 'lost' } } }), {
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'stale', kind: 'configmaps' },
    });
  });

  it('allows an unconditional update of a ConfigMap (no resourceVersion)', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('uncond') });
    const updated = await core.replaceNamespacedConfigMap({ name: 'uncond', namespace: 'default', body: cm('uncond', { b: '2' }) });
    expect(updated.data).toEqual({ b: '2' });
  });

  it('answers 404 when the object does not exist', async () => {
    await expectStatus(core.replaceNamespacedConfigMap({ name: 'ghost', namespace: 'default', body: cm('ghost') }), {
      code: 404,
      reason: 'NotFound',
      message: 'configmaps "ghost" not found',
      details: { name: 'ghost', kind: 'configmaps' },
    });
  });

  it('answers 400 when the body name differs from the URL', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('url-name') });
    await expectStatus(core.replaceNamespacedConfigMap({ name: 'url-name', namespace: 'default', body: cm('other') }), {
      code: 400,
      reason: 'BadRequest',
      message: 'the name of the object (other) does not match the name on the URL (url-name)',
    });
  });

  it('answers 409 with the storage precondition text when the uid differs', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('uid') });
    const body = await expectStatus(
      core.replaceNamespacedConfigMap({ name: 'uid', namespace: 'default', body: { ...created, metadata: { ...created.metadata, uid: 'other-uid' } } }),
      { code: 409, reason: 'Conflict' },
    );
    expect(body.message).toBe(
      `Operation cannot be fulfilled on configmaps "uid": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/uid, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other-uid, UID in object meta: ${created.metadata?.uid}`,
    );
  });

  it('bumps a Deployment’s generation on spec changes only', async () => {
    const spec = { selector: { matchLabels: { app: 'g' } }, template: { metadata: { labels: { app: 'g' } }, spec: { containers: [{ name: 'c', image: 'a' }] } } };
    const d = await apps.createNamespacedDeployment({ namespace: 'default', body: { metadata: { name: 'g' }, spec } });
    const labelled = await apps.replaceNamespacedDeployment({ name: 'g', namespace: 'default', body: { ...d, metadata: { ...d.metadata, labels: { x: 'y' } } } });
    expect(labelled.metadata?.generation).toBe(1);
    const respec = await apps.replaceNamespacedDeployment({ name: 'g', namespace: 'default', body: { ...labelled, spec: { ...labelled.spec!, replicas: 3 } } });
    expect(respec.metadata?.generation).toBe(2);
  });
});

describe('merge patch', () => {
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

  it('merges objects and deletes keys set to null', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'p', labels: { a: '1', b: '2' } }, data: { x: '1' } } });
    const patched = await core.patchNamespacedConfigMap({ name: 'p', namespace: 'default', body: { metadata: { labels: { b: null, c: '3' } }, data: { y: '2' } } }, merge);
    expect(patched.metadata?.labels).toEqual({ a: '1', c: '3' });
    expect(patched.data).toEqual({ x: '1', y: '2' });
  });

  it('answers 404 for a missing object and 409 for a stale resourceVersion in the patch', async () => {
    await expectStatus(core.patchNamespacedConfigMap({ name: 'none', namespace: 'default', body: { data: {} } }, merge), {
      code: 404,
      reason: 'NotFound',
      message: 'configmaps "none" not found',
    });
    const c = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('prv') });
    await core.patchNamespacedConfigMap({ name: 'prv', namespace: 'default', body: { data: { a: '2' } } }, merge);
    await expectStatus(
      core.patchNamespacedConfigMap({ name: 'prv', namespace: 'default', body: { metadata: { resourceVersion: c.metadata?.resourceVersion }, data: { a: '3' } } }, merge),
      { code: 409, reason: 'Conflict' },
    );
  });

  it('answers 415 for patch types not served yet, listing the ones that are', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('jp') });
    await expectStatus(core.patchNamespacedConfigMap({ name: 'jp', namespace: 'default', body: { data: {} } }, k8s.setHeaderOptions('Content-Type', 'application/vnd.example+json')), {
      code: 415,
      reason: 'UnsupportedMediaType',
    });
  });
});

describe('delete', () => {
  it('removes the object and answers with a success Status for ConfigMaps', async () => {
    const c = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('d1') });
    const res = await core.deleteNamespacedConfigMapWithHttpInfo({ name: 'd1', namespace: 'default' });
    expect(res.httpStatusCode).toBe(200);
    await expectStatus(core.readNamespacedConfigMap({ name: 'd1', namespace: 'default' }), { code: 404, reason: 'NotFound', message: 'configmaps "d1" not found' });
    expect(c.metadata?.uid).toBeTruthy();
  });

  it('answers 404 for a missing object', async () => {
    await expectStatus(core.deleteNamespacedConfigMap({ name: 'gone', namespace: 'default' }), {
      code: 404,
      reason: 'NotFound',
      message: 'configmaps "gone" not found',
      details: { name: 'gone', kind: 'configmaps' },
    });
  });

  it('marks an object with finalizers as deleting instead of removing it', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'fin', finalizers: ['example.com/hold'] } } });
    await core.deleteNamespacedConfigMap({ name: 'fin', namespace: 'default' });
    const held = await core.readNamespacedConfigMap({ name: 'fin', namespace: 'default' });
    expect(held.metadata?.deletionTimestamp).toBeInstanceOf(Date);
    expect(held.metadata?.deletionGracePeriodSeconds).toBe(0);
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: cm('fin') }), {
      code: 409,
      reason: 'AlreadyExists',
      message: 'object is being deleted: configmaps "fin" already exists',
    });
    // Removing the last finalizer completes the deletion.
    await core.replaceNamespacedConfigMap({ name: 'fin', namespace: 'default', body: { ...held, metadata: { ...held.metadata, finalizers: [] } } });
    await expectStatus(core.readNamespacedConfigMap({ name: 'fin', namespace: 'default' }), { code: 404, reason: 'NotFound' });
  });

  it('checks preconditions with the Kind-based conflict text', async () => {
    const c = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('pre') });
    await expectStatus(core.deleteNamespacedConfigMap({ name: 'pre', namespace: 'default', body: { preconditions: { uid: 'wrong' } } }), {
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (wrong) does not match the UID in record (${c.metadata?.uid}). The object might have been deleted and then recreated`,
      details: { name: 'pre', kind: 'ConfigMap' },
    });
  });

  it('validates propagationPolicy with 422 on DeleteOptions', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('pp') });
    await expectStatus(core.deleteNamespacedConfigMap({ name: 'pp', namespace: 'default', propagationPolicy: 'Sideways' }), {
      code: 422,
      reason: 'Invalid',
      message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    });
  });

  it('deletecollection removes exactly what the selector matches', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'k1', labels: { tier: 'a' } } } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'k2', labels: { tier: 'a' } } } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'k3', labels: { tier: 'b' } } } });
    const res = await core.deleteCollectionNamespacedConfigMapWithHttpInfo({ namespace: 'default', labelSelector: 'tier=a' });
    expect(res.httpStatusCode).toBe(200);
    const left = await core.listNamespacedConfigMap({ namespace: 'default' });
    // kube-root-ca.crt (the root-CA publisher's, in every namespace) has no tier label either.
    expect(left.items.map((i) => i.metadata?.name)).toEqual(['k3', 'kube-root-ca.crt']);
  });
});

describe('typed decoding and per-resource warnings', () => {
  it('answers 400 for Secret data that is not base64, as typed decoding does', async () => {
    await expectStatus(core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's' }, data: { k: 'not base64!' } } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3',
    });
  });

  it('sends the deprecation warning on every Endpoints request', async () => {
    const res = await core.listNamespacedEndpointsWithHttpInfo({ namespace: 'default' });
    expect(res.headers['warning']).toBe('299 - "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"');
  });

  it('uses the Job conversion function’s own text for an unsupported field', async () => {
    const batch = cluster.kubeConfig.makeApiClient(k8s.BatchV1Api);
    await expectStatus(batch.listNamespacedJob({ namespace: 'default', fieldSelector: 'status.active=1' }), {
      code: 400,
      reason: 'BadRequest',
      message: 'field label "status.active" not supported for batchv1.Job',
    });
  });
});

describe('dry run of updates, patches and deletes', () => {
  const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

  it('answers the would-be object and changes nothing', async () => {
    const c = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('dry', { v: '1' }) });
    const put = await core.replaceNamespacedConfigMap({ name: 'dry', namespace: 'default', body: { ...c, data: { v: '2' } }, dryRun: 'All' });
    expect(put.data).toEqual({ v: '2' });
    expect(put.metadata?.resourceVersion).toBe(c.metadata?.resourceVersion);
    const patched = await core.patchNamespacedConfigMap({ name: 'dry', namespace: 'default', body: { data: { v: '3' } }, dryRun: 'All' }, merge);
    expect(patched.data).toEqual({ v: '3' });
    const del = await core.deleteNamespacedConfigMapWithHttpInfo({ name: 'dry', namespace: 'default', dryRun: 'All' });
    expect(del.httpStatusCode).toBe(200);
    const stored = await core.readNamespacedConfigMap({ name: 'dry', namespace: 'default' });
    expect(stored.data).toEqual({ v: '1' });
    expect(stored.metadata?.resourceVersion).toBe(c.metadata?.resourceVersion);
  });

  it('still validates: a bad label fails a dry-run update with 422', async () => {
    const c = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('dry2') });
    await expectStatus(core.replaceNamespacedConfigMap({ name: 'dry2', namespace: 'default', body: { ...c, metadata: { ...c.metadata, labels: { 'a b': 'c' } } }, dryRun: 'All' }), {
      code: 422,
      reason: 'Invalid',
    });
  });
});

describe('more request errors', () => {
  it('answers 400 when a PUT body names another namespace', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('nsx') });
    await expectStatus(core.replaceNamespacedConfigMap({ name: 'nsx', namespace: 'default', body: { metadata: { name: 'nsx', namespace: 'kube-system' } } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('answers 400 when a PUT body has no name (checkName)', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: cm('noname') });
    await expectStatus(core.replaceNamespacedConfigMap({ name: 'noname', namespace: 'default', body: { metadata: { resourceVersion: created.metadata!.resourceVersion! }, data: { a: 'b' } } }), {
      code: 400,
      reason: 'BadRequest',
      message: 'the name of the object (noname based on URL) was undeterminable: name must be provided',
    });
  });

  it('answers 400 for malformed YAML', async () => {
    const res = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: 'metadata: [unclosed',
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.reason).toBe('BadRequest');
    // json.go Decode returns YAMLToJSON's error as it is (no version/kind wrapper), as a real
    // server answers: kubernetes/kubernetes#72773 shows `...(must be of type Deployment): yaml: mapping values ...`.
    expect(body.message).toMatch(/^the object provided is unrecognized \(must be of type ConfigMap\): yaml: .+ \(6d657461646174613a205b756e636c6f736564\)$/);
  });

});

describe('types that refuse unconditional updates', () => {
  it('answers 422 "must be specified for an update" for a Lease PUT without resourceVersion', async () => {
    const coord = cluster.kubeConfig.makeApiClient(k8s.CoordinationV1Api);
    await coord.createNamespacedLease({ namespace: 'default', body: { metadata: { name: 'lock' }, spec: { holderIdentity: 'a' } } });
    await expectStatus(coord.replaceNamespacedLease({ name: 'lock', namespace: 'default', body: { metadata: { name: 'lock' }, spec: { holderIdentity: 'b' } } }), {
      code: 422,
      reason: 'Invalid',
      message: 'leases.coordination.k8s.io "lock" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
      details: {
        name: 'lock',
        group: 'coordination.k8s.io',
        kind: 'leases',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be specified for an update', field: 'metadata.resourceVersion' }],
      },
    });
  });
});

describe('delete status codes', () => {
  it('answers 202 only for a pending deletion with an explicit orphanDependents=false', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
    const accepted = await core.deleteNamespacedConfigMapWithHttpInfo({ name: 'held', namespace: 'default', orphanDependents: false });
    expect(accepted.httpStatusCode).toBe(202);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'held2', finalizers: ['example.com/hold'] } } });
    const plain = await core.deleteNamespacedConfigMapWithHttpInfo({ name: 'held2', namespace: 'default' });
    expect(plain.httpStatusCode).toBe(200);
  });
});
