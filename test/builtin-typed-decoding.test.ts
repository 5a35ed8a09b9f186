// Typed decoding of built-in kinds (issue 18 point 2): bodies decode as the apiserver's Go
// decoder decodes them into the kind's struct, so wrong JSON types are 400s with the decoder's
// texts and nothing is stored, unknown and duplicate fields follow fieldValidation with the
// `strict decoding error` texts, and what is stored is what the Go struct keeps (Quantities in
// canonical form, nulls as Go treats them). Raw fetch, through the same transport, sends what
// client-node's typed serializer would not (a `1.0`, duplicate keys, unknown fields, YAML).
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';
import { expectStatus } from './support/status.ts';
import { captureWarnings, warningTexts } from './support/warnings.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let apps: k8s.AppsV1Api;
let seq = 0;
const ns = 'default';
const name = (prefix: string) => `${prefix}${++seq}`;

beforeAll(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
});
afterAll(() => cluster.close());

const CONFIGMAPS = `/api/v1/namespaces/${ns}/configmaps`;
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${ns}/deployments`;
const PODS = `/api/v1/namespaces/${ns}/pods`;
const SERVICES = `/api/v1/namespaces/${ns}/services`;

const send = (method: string, path: string, body: string, contentType = 'application/json') =>
  fetch(`${cluster.url}${path}`, { method, headers: { 'content-type': contentType }, body });
const messageOf = async (res: Response) => ((await res.json()) as { message: string }).message;

const deployment = (n: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: n },
  spec: {
    selector: { matchLabels: { app: n } },
    template: { metadata: { labels: { app: n } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...spec,
  },
});
const pod = (n: string, container: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: n },
  spec: { containers: [{ name: 'c', image: 'nginx', ...container }] },
});

describe('wrong JSON types are 400s with the Go decoder’s text, and nothing is stored', () => {
  it('a number in ConfigMap data (map[string]string)', async () => {
    const n = name('cm');
    await expectStatus(core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: n }, data: { k: 1 } } as unknown as k8s.V1ConfigMap }), {
      code: 400,
      reason: 'BadRequest',
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    });
    await expectStatus(core.readNamespacedConfigMap({ namespace: ns, name: n }), { code: 404 });
  });

  it('a string in an int32 (Deployment replicas)', async () => {
    const n = name('d');
    await expectStatus(apps.createNamespacedDeployment({ namespace: ns, body: deployment(n, { replicas: 'three' }) as unknown as k8s.V1Deployment }), {
      code: 400,
      reason: 'BadRequest',
      message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    });
    await expectStatus(apps.readNamespacedDeployment({ namespace: ns, name: n }), { code: 404 });
  });

  it('an int32 overflow, and a `1.0` (ParseInt refuses both), naming the number', async () => {
    const n = name('d');
    await expectStatus(apps.createNamespacedDeployment({ namespace: ns, body: deployment(n, { replicas: 3_000_000_000 }) }), {
      code: 400,
      message: 'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
    });
    const body = JSON.stringify(deployment(n)).replace('"spec":{', '"spec":{"replicas":1.0,');
    const res = await send('POST', DEPLOYMENTS, body);
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });

  it('names the innermost struct and the field path without list indexes or map keys', async () => {
    const body = pod(name('p'), { ports: [{ containerPort: 80 }, { containerPort: '81' }] });
    const res = await send('POST', PODS, JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe(
      'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
    );
  });

  it('an object where a string belongs, and an array where a struct belongs', async () => {
    const res = await send('POST', CONFIGMAPS, JSON.stringify({ metadata: { name: name('cm'), namespace: { a: 1 } } }));
    expect(await messageOf(res)).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal object into Go struct field ObjectMeta.metadata.namespace of type string',
    );
    const res2 = await send('POST', DEPLOYMENTS, JSON.stringify({ ...deployment(name('d')), spec: [] }));
    expect(await messageOf(res2)).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal array into Go struct field Deployment.spec of type v1.DeploymentSpec',
    );
  });

  it('the first type error wins, and a later strict finding does not hide it', async () => {
    const body = { ...deployment(name('d'), { replicas: 'x', paused: 'y', bogus: 1 }) };
    const res = await send('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, JSON.stringify(body));
    expect(await messageOf(res)).toContain('json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  it('a bad base64 []byte value (Secret data) keeps its Go text', async () => {
    const res = await send('POST', `/api/v1/namespaces/${ns}/secrets`, JSON.stringify({ metadata: { name: name('s') }, data: { k: 'not base64!' } }));
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3');
  });
});

describe('kinds', () => {
  it('refuses a Pod sent to the configmaps endpoint as conversion does', async () => {
    const n = name('p');
    await expectStatus(core.createNamespacedConfigMap({ namespace: ns, body: pod(n) as unknown as k8s.V1ConfigMap }), {
      code: 400,
      reason: 'BadRequest',
      message: 'Pod in version "v1" cannot be handled as a ConfigMap: converting (v1.Pod) to (core.ConfigMap): unknown conversion',
    });
    await expectStatus(core.readNamespacedConfigMap({ namespace: ns, name: n }), { code: 404 });
    await expectStatus(core.readNamespacedPod({ namespace: ns, name: n }), { code: 404 });
  });

  it('decodes the other kind first: its type errors come before the conversion error', async () => {
    const res = await send('POST', CONFIGMAPS, JSON.stringify({ ...pod(name('p')), spec: { activeDeadlineSeconds: 'soon' } }));
    expect(await messageOf(res)).toBe(
      'Pod in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64',
    );
  });

  it('refuses a kind the group version does not have (kinds are case sensitive)', async () => {
    const res = await send('POST', CONFIGMAPS, JSON.stringify({ apiVersion: 'v1', kind: 'configmap', metadata: { name: name('cm') } }));
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe(
      'configmap in version "v1" cannot be handled as a ConfigMap: no kind "configmap" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
  });
});

describe('fieldValidation on built-ins', () => {
  const withUnknowns = (n: string) =>
    `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${n}","labelz":{"a":"b"},"name":"${n}"},"Data":{"x":"y"},"data":{"a":"1","a":"2"},"zeta":true}`;
  const FINDINGS = [
    'unknown field "metadata.labelz"',
    'duplicate field "metadata.name"',
    'unknown field "Data"',
    'duplicate field "data.a"',
    'unknown field "zeta"',
  ];

  it('Strict refuses unknown and duplicate fields with 400, in document order (keys are case sensitive)', async () => {
    const n = name('cm');
    const res = await send('POST', `${CONFIGMAPS}?fieldValidation=Strict`, withUnknowns(n));
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe(`ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: ${FINDINGS.join(', ')}`);
    await expectStatus(core.readNamespacedConfigMap({ namespace: ns, name: n }), { code: 404 });
  });

  it('Warn (the default) stores what the struct keeps and warns once per finding, in order', async () => {
    for (const query of ['?fieldValidation=Warn', '']) {
      const n = name('cm');
      const res = await send('POST', `${CONFIGMAPS}${query}`, withUnknowns(n));
      expect(res.status).toBe(201);
      expect(warningTexts(res.headers.get('warning'))).toEqual(FINDINGS);
      const stored = await core.readNamespacedConfigMap({ namespace: ns, name: n });
      expect(stored.data).toEqual({ a: '2' });
      expect(Object.keys(stored.metadata!)).not.toContain('labelz');
    }
  });

  it('Ignore drops them silently', async () => {
    const n = name('cm');
    const res = await send('POST', `${CONFIGMAPS}?fieldValidation=Ignore`, withUnknowns(n));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBeNull();
    expect(((await res.json()) as { data: unknown }).data).toEqual({ a: '2' });
  });

  it('through client-node (a merge patch, whose body it sends as given): Warn warns, Strict refuses, Ignore is silent', async () => {
    const n = name('cm');
    await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: n }, data: { a: 'b' } } });
    const merge = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
    const body = { metadata: { bogus: 1 }, Data: { x: 'y' }, data: { a: 'c' } };
    const warn = captureWarnings(merge);
    const patched = await core.patchNamespacedConfigMap({ namespace: ns, name: n, body, fieldValidation: 'Warn' }, warn.options);
    expect(warn.warnings()).toEqual(['unknown field "Data"', 'unknown field "metadata.bogus"']);
    expect(patched.data).toEqual({ a: 'c' });
    const refused = await expectStatus(core.patchNamespacedConfigMap({ namespace: ns, name: n, body, fieldValidation: 'Strict' }, merge), { code: 422, reason: 'Invalid' });
    expect(refused.message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: unknown field "Data", unknown field "metadata\.bogus"$/);
    const ignore = captureWarnings(merge);
    await core.patchNamespacedConfigMap({ namespace: ns, name: n, body: { ...body, data: { a: 'd' } }, fieldValidation: 'Ignore' }, ignore.options);
    expect(ignore.warnings()).toEqual([]);
    const stored = await core.readNamespacedConfigMap({ namespace: ns, name: n });
    expect(stored.data).toEqual({ a: 'd' });
    expect(Object.keys(stored)).not.toContain('Data');
  });

  it('YAML bodies: unknown fields in sorted key order, as the YAML-to-JSON conversion leaves them', async () => {
    const yaml = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name('d')}\nspec:\n  zz: 1\n  selector:\n    matchLabels: {app: a}\n  aa: 2\n  template:\n    metadata:\n      labels: {app: a}\n    spec:\n      containers: [{name: c, image: nginx, imagePolicy: Always}]\n`;
    const res = await send('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, yaml, 'application/yaml');
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.aa", unknown field "spec.template.spec.containers[0].imagePolicy", unknown field "spec.zz"',
    );
  });

  it('YAML bodies: go-yaml’s duplicate-key error comes first, then the unknown fields', async () => {
    const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name('cm')}\ndata:\n  a: "1"\n  a: "2"\nextra: true\n`;
    const res = await send('POST', `${CONFIGMAPS}?fieldValidation=Strict`, yaml, 'application/yaml');
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: yaml: unmarshal errors:\n  line 7: key "a" already set in map, unknown field "extra"',
    );
  });

  it('patches: the patched object decodes strictly too (422 naming the patched object), and type errors are 422s', async () => {
    const n = name('d');
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment(n) });
    const path = `${DEPLOYMENTS}/${n}`;
    const merge = 'application/merge-patch+json';
    const strict = await send('PATCH', `${path}?fieldValidation=Strict`, '{"spec":{"bogus":1}}', merge);
    expect(strict.status).toBe(422);
    expect(await messageOf(strict)).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: unknown field "spec\.bogus"$/);
    const warn = await send('PATCH', path, '{"spec":{"bogus":1}}', merge);
    expect(warn.status).toBe(200);
    expect(warningTexts(warn.headers.get('warning'))).toEqual(['unknown field "spec.bogus"']);
    const typeError = await send('PATCH', path, '{"spec":{"replicas":"three"}}', merge);
    expect(typeError.status).toBe(422);
    expect(await messageOf(typeError)).toMatch(/patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field DeploymentSpec\.spec\.replicas of type int32$/);
    const jsonPatch = await send('PATCH', path, '[{"op":"add","path":"/spec/replicas","value":1.5}]', 'application/json-patch+json');
    expect(jsonPatch.status).toBe(422);
    expect(await messageOf(jsonPatch)).toContain('json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32');
    expect((await apps.readNamespacedDeployment({ namespace: ns, name: n })).spec!.replicas).toBe(1);
  });
});

describe('strategic merge patches go through the unstructured converter, not JSON', () => {
  const smp = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch);

  it('a string replica count: 422 with the converter’s text and the patch as Go prints the map', async () => {
    const n = name('d');
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment(n) });
    const body = { spec: { replicas: 'three' } } as unknown as k8s.V1Deployment;
    await expectStatus(apps.patchNamespacedDeployment({ namespace: ns, name: n, body }, smp), {
      code: 422,
      reason: 'Invalid',
      message: ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:three]]": unrecognized type: int32',
    });
    expect((await apps.readNamespacedDeployment({ namespace: ns, name: n })).spec!.replicas).toBe(1);
  });

  it('unknown fields sorted by text after the patch’s own duplicates; Warn warns, Strict refuses', async () => {
    const n = name('d');
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment(n) });
    const body = '{"spec":{"zeta":1,"paused":false,"paused":true,"alpha":2}}';
    const path = `${DEPLOYMENTS}/${n}`;
    const warn = await send('PATCH', path, body, 'application/strategic-merge-patch+json');
    expect(warn.status).toBe(200);
    expect(warningTexts(warn.headers.get('warning'))).toEqual(['duplicate field "spec.paused"', 'unknown field "spec.alpha"', 'unknown field "spec.zeta"']);
    const strict = await send('PATCH', `${path}?fieldValidation=Strict`, body, 'application/strategic-merge-patch+json');
    expect(strict.status).toBe(422);
    expect(await messageOf(strict)).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[alpha:2 paused:true zeta:1]]": strict decoding error: duplicate field "spec.paused", unknown field "spec.alpha", unknown field "spec.zeta"',
    );
  });

  it('canonicalises a patched Quantity', async () => {
    const n = name('d');
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment(n) });
    const body = { spec: { template: { spec: { containers: [{ name: 'c', resources: { limits: { cpu: '2000m', memory: '2048Mi' } } }] } } } } as unknown as k8s.V1Deployment;
    const patched = await apps.patchNamespacedDeployment({ namespace: ns, name: n, body }, smp);
    expect(patched.spec!.template.spec!.containers[0]!.resources!.limits).toEqual({ cpu: '2', memory: '2Gi' });
  });
});

describe('values as the Go struct keeps them', () => {
  it('stores Quantities in canonical form (1000m → 1, 1024Mi → 1Gi, 0.5 → 500m, 1000 → 1k)', async () => {
    const created = await core.createNamespacedPod({
      namespace: ns,
      body: pod(name('p'), { resources: { requests: { cpu: '500m', memory: '1000' }, limits: { cpu: '1000m', memory: '1024Mi', 'ephemeral-storage': 0.5 } } }),
    });
    const resources = created.spec!.containers[0]!.resources!;
    expect(resources.limits).toEqual({ cpu: '1', memory: '1Gi', 'ephemeral-storage': '500m' });
    // Requests missing a limited resource default to the limit, after decoding.
    expect(resources.requests).toEqual({ cpu: '500m', memory: '1k', 'ephemeral-storage': '500m' });
  });

  it('protobuf bodies (what kubectl’s typed clients send) decode to the same canonical Quantities', async () => {
    // Protocol buffers by hand: a length-delimited field is tag, length, bytes.
    const field = (n: number, ...parts: (string | Buffer)[]) => {
      const body = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
      if (body.length > 127) throw new Error('one length byte only');
      return Buffer.concat([Buffer.from([(n << 3) | 2, body.length]), body]);
    };
    const n = name('p');
    const limits = field(1, field(1, 'cpu'), field(2, field(1, '1000m')));
    const container = field(2, field(1, 'c'), field(2, 'nginx'), field(8, limits));
    const podBytes = Buffer.concat([field(1, field(1, n)), field(2, container)]);
    const unknown = Buffer.concat([field(1, field(1, 'v1'), field(2, 'Pod')), field(2, podBytes)]);
    const res = await fetch(`${cluster.url}${PODS}`, {
      method: 'POST',
      headers: { 'content-type': 'application/vnd.kubernetes.protobuf', accept: 'application/json' },
      body: Buffer.concat([Buffer.from('k8s\0'), unknown]),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as k8s.V1Pod;
    expect(created.spec!.containers[0]!.resources!.limits).toEqual({ cpu: '1' });
  });

  it('refuses a malformed Quantity with resource.ParseQuantity’s text', async () => {
    await expectStatus(core.createNamespacedPod({ namespace: ns, body: pod(name('p'), { resources: { limits: { cpu: 'lots' } } }) }), {
      code: 400,
      message: "Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    });
  });

  it('int-or-string fields keep a string or an int32, and refuse a float with the field named', async () => {
    const service = (n: string, targetPorts: unknown[]) => ({
      metadata: { name: n },
      spec: { ports: targetPorts.map((targetPort, i) => ({ name: `p${i}`, port: 80 + i, targetPort })) },
    });
    const created = await core.createNamespacedService({ namespace: ns, body: service(name('svc'), ['http', 8080]) as k8s.V1Service });
    expect(created.spec!.ports!.map((p) => p.targetPort)).toEqual(['http', 8080]);
    const res = await send('POST', SERVICES, JSON.stringify(service(name('svc'), [1.5])));
    expect(res.status).toBe(400);
    expect(await messageOf(res)).toBe(
      'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.targetPort of type int32',
    );
  });

  it('null: nil for pointers, maps and slices; no effect on other fields (omitempty ones stay out)', async () => {
    const n = name('d');
    const body = deployment(n, { replicas: null, paused: null, revisionHistoryLimit: 3 });
    const res = await send('POST', DEPLOYMENTS, JSON.stringify({ ...body, metadata: { name: n, labels: null, generateName: null } }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    expect(created.metadata).not.toHaveProperty('labels');
    expect(created.metadata).not.toHaveProperty('generateName');
    expect(created.spec).not.toHaveProperty('paused');
    expect(created.spec.revisionHistoryLimit).toBe(3);
  });

  it('stores what encoding/json writes: omitempty drops false, 0, "" and empty maps and slices, never an empty struct or a set pointer', async () => {
    const n = name('d');
    const body = deployment(n, { paused: false, minReadySeconds: 0, revisionHistoryLimit: 0, strategy: {} });
    const res = await send('POST', DEPLOYMENTS, JSON.stringify({ ...body, metadata: { name: n, labels: {}, annotations: { a: '' }, finalizers: [] } }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
    expect(created.metadata).not.toHaveProperty('labels');
    expect(created.metadata).not.toHaveProperty('finalizers');
    expect(created.metadata.annotations).toEqual({ a: '' });
    expect(created.spec).not.toHaveProperty('paused');
    expect(created.spec).not.toHaveProperty('minReadySeconds');
    expect(created.spec.revisionHistoryLimit).toBe(0);
    expect(created.spec.strategy).toBeTypeOf('object');
  });

  it('timestamps decode as RFC 3339 and are kept in UTC at whole seconds; a bad one is refused with time.Parse’s text', async () => {
    const event = (n: string, firstTimestamp: string) => ({
      metadata: { name: n },
      involvedObject: { kind: 'Pod', name: 'x', namespace: ns },
      reason: 'R',
      firstTimestamp,
    });
    const ok = await send('POST', `/api/v1/namespaces/${ns}/events`, JSON.stringify(event(name('e'), '2024-05-01T12:00:00.75+02:00')));
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { firstTimestamp: string }).firstTimestamp).toBe('2024-05-01T10:00:00Z');
    const bad = await send('POST', `/api/v1/namespaces/${ns}/events`, JSON.stringify(event(name('e'), 'yesterday')));
    expect(bad.status).toBe(400);
    expect(await messageOf(bad)).toBe(
      'Event in version "v1" cannot be handled as a Event: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    );
  });
});

describe.skipIf(!kubectlAvailable)('kubectl (fieldValidation=Strict by default)', () => {
  const k = useKubectlCluster();
  const manifest = (n: string, extra: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${n}\n  namespace: default\n${extra}data:\n  a: b\n`;

  it('apply refuses an unknown field by default', async () => {
    const r = await k.kubectl(['apply', '-f', '-'], manifest('k1', 'colour: red\n'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "colour"');
    await expectStatus(k.core.readNamespacedConfigMap({ namespace: 'default', name: 'k1' }), { code: 404 });
  });

  it('--validate=warn creates it and prints the warning; --validate=false drops the field silently', async () => {
    const warn = await k.kubectl(['apply', '--validate=warn', '-f', '-'], manifest('k2', 'colour: red\n'));
    expect(warn.code, warn.stderr).toBe(0);
    expect(warn.stderr).toContain('unknown field "colour"');
    const off = await k.kubectl(['create', '--validate=false', '-f', '-'], manifest('k3', 'colour: red\n'));
    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).toBe('');
    const stored = await k.core.readNamespacedConfigMap({ namespace: 'default', name: 'k3' });
    expect(stored.data).toEqual({ a: 'b' });
  });

  it('kubectl patch (strategic by default) with a string replica count fails with the converter’s text', async () => {
    const created = await k.kubectl(['create', 'deployment', 'web', '--image=nginx']);
    expect(created.code, created.stderr).toBe(0);
    const r = await k.kubectl(['patch', 'deployment', 'web', '-p', '{"spec":{"replicas":"3"}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('patch: Invalid value: "map[spec:map[replicas:3]]": unrecognized type: int32');
  });

  it('a wrong type fails even with --validate=false, with the decoder’s text', async () => {
    const r = await k.kubectl(['create', '--validate=false', '-f', '-'], manifest('k4', '').replace('a: b', 'a: 1'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  });
});
