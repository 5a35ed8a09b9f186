import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../object.ts';
import { createBuiltinContext } from './context.ts';
import { create, typesFor, update } from './test-helpers.ts';

const type = typesFor();
const sel = (group: string, plural: string, key: string, obj: KubeObject) => type(group, plural).fieldSelectors![key]!(obj);

describe('core/v1 field selectors', () => {
  it('reads Pod fields as ToSelectableFields renders them', () => {
    const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1', restartPolicy: 'Always' }, status: { podIPs: [{ ip: '10.0.0.5' }] } };
    expect(sel('', 'pods', 'spec.nodeName', pod)).toBe('n1');
    expect(sel('', 'pods', 'spec.host', pod)).toBe('n1');
    expect(sel('', 'pods', 'spec.hostNetwork', pod)).toBe('false');
    expect(sel('', 'pods', 'spec.hostNetwork', { spec: { hostNetwork: true } })).toBe('true');
    expect(sel('', 'pods', 'status.podIP', pod)).toBe('10.0.0.5');
    expect(sel('', 'pods', 'status.podIPs', pod)).toBe('');
    expect(sel('', 'pods', 'status.nominatedNodeName', pod)).toBe('');
    expect(sel('', 'pods', 'spec.serviceAccountName', { spec: { serviceAccount: 'legacy' } })).toBe('legacy');
    expect(Object.keys(type('', 'pods').fieldSelectors!).sort()).toEqual(
      [
        'metadata.name',
        'metadata.namespace',
        'spec.host',
        'spec.hostNetwork',
        'spec.nodeName',
        'spec.restartPolicy',
        'spec.schedulerName',
        'spec.serviceAccountName',
        'status.nominatedNodeName',
        'status.phase',
        'status.podIP',
        'status.podIPs',
      ].sort(),
    );
  });

  it('gives cluster-scoped kinds with their own function no metadata.namespace', () => {
    expect(Object.keys(type('', 'nodes').fieldSelectors!)).toEqual(['metadata.name', 'spec.unschedulable']);
    expect(Object.keys(type('', 'namespaces').fieldSelectors!)).toEqual(['metadata.name', 'status.phase']);
    expect(sel('', 'nodes', 'spec.unschedulable', { spec: {} })).toBe('false');
    expect(sel('', 'namespaces', 'status.phase', { status: { phase: 'Terminating' } })).toBe('Terminating');
  });

  it('reads Secret, Service and Event keys', () => {
    expect(sel('', 'secrets', 'type', { type: 'kubernetes.io/tls' })).toBe('kubernetes.io/tls');
    expect(sel('', 'services', 'spec.clusterIP', { spec: { clusterIP: 'None' } })).toBe('None');
    expect(sel('', 'services', 'spec.type', {})).toBe('');
    const ev = { involvedObject: { kind: 'Pod', uid: 'u' }, source: { component: 'kubelet' }, reportingComponent: 'ctrl', reason: 'Started' };
    expect(sel('', 'events', 'involvedObject.kind', ev)).toBe('Pod');
    expect(sel('', 'events', 'involvedObject.uid', ev)).toBe('u');
    expect(sel('', 'events', 'source', ev)).toBe('kubelet');
    expect(sel('', 'events', 'source', { reportingComponent: 'ctrl' })).toBe('ctrl');
    expect(sel('', 'events', 'reportingComponent', ev)).toBe('ctrl');
  });
});

describe('Namespace', () => {
  it('is created Active with the kubernetes finalizer and the name label', () => {
    const { obj } = create(type('', 'namespaces'), { metadata: { name: 'team-a' }, status: { phase: 'Terminating' } });
    expect(obj.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(obj.status).toEqual({ phase: 'Active' });
    expect(obj.metadata?.labels).toEqual({ 'kubernetes.io/metadata.name': 'team-a' });
    expect(obj.metadata?.generation).toBeUndefined();
  });

  it('keeps spec.finalizers and status on update', () => {
    const old = create(type('', 'namespaces'), { metadata: { name: 'a' } }).obj;
    const { obj } = update(type('', 'namespaces'), { metadata: { name: 'a', labels: { x: 'y' } }, spec: { finalizers: [] }, status: { phase: 'X' } }, old);
    expect(obj.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(obj.status).toEqual({ phase: 'Active' });
    expect(obj.metadata?.labels).toEqual({ x: 'y', 'kubernetes.io/metadata.name': 'a' });
  });
});

describe('ConfigMap', () => {
  const cm = type('', 'configmaps');

  it('validates keys with the IsConfigMapKey texts', () => {
    const { errors } = create(cm, { metadata: { name: 'c' }, data: { 'bad key': 'v', '..x': 'v', ok: 'v' }, binaryData: { ok: 'dg==' } });
    expect(errors).toEqual([
      `data[..x]: Invalid value: "..x": must not start with '..'`,
      `data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      'data[ok]: Invalid value: "ok": duplicate of key present in binaryData',
    ]);
  });

  it('limits the total size to 1 MiB on the empty path', () => {
    const { errors } = create(cm, { metadata: { name: 'c' }, data: { a: 'x'.repeat(1024 * 1024), b: 'y' } });
    expect(errors).toEqual([': Too long: may not be more than 1048576 bytes']);
    expect(create(cm, { metadata: { name: 'c' }, data: { a: 'x'.repeat(1024 * 1024) } }).errors).toEqual([]);
  });

  it('enforces immutable', () => {
    const old = { metadata: { name: 'c' }, immutable: true, data: { a: '1' } };
    expect(update(cm, { metadata: { name: 'c' }, data: { a: '2' } }, old).errors).toEqual([
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
  });
});

describe('Secret', () => {
  const secret = type('', 'secrets');

  it('defaults type Opaque and folds stringData into data', () => {
    const { obj } = create(secret, { metadata: { name: 's' }, data: { a: 'eA==' }, stringData: { a: 'ü', b: 'two' } });
    expect(obj.type).toBe('Opaque');
    expect(obj.stringData).toBeUndefined();
    expect(obj.data).toEqual({ a: Buffer.from('ü').toString('base64'), b: 'dHdv' });
  });

  it('requires the keys of typed secrets', () => {
    expect(create(secret, { metadata: { name: 's' }, type: 'kubernetes.io/tls', data: {} }).errors).toEqual([
      'data[tls.crt]: Required value',
      'data[tls.key]: Required value',
    ]);
    expect(create(secret, { metadata: { name: 's' }, type: 'kubernetes.io/service-account-token' }).errors).toEqual([
      'metadata.annotations[kubernetes.io/service-account.name]: Required value',
    ]);
  });

  it('counts decoded bytes against 1 MiB on data', () => {
    const big = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    expect(create(secret, { metadata: { name: 's' }, data: { a: big } }).errors).toEqual(['data: Too long: may not be more than 1048576 bytes']);
  });

  it('keeps type immutable', () => {
    const old = create(secret, { metadata: { name: 's' } }).obj;
    expect(update(secret, { metadata: { name: 's' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }, old).errors).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
    ]);
  });
});

describe('Pod', () => {
  const pods = type('', 'pods');
  const pod = (spec: Record<string, unknown> = {}) => ({
    metadata: { name: 'web', namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
    status: { phase: 'Running' },
  });

  it('applies the PodSpec, Container and Pod defaults', () => {
    const { obj } = create(pods, pod());
    expect(obj.spec).toEqual({
      containers: [
        {
          name: 'c',
          image: 'nginx',
          imagePullPolicy: 'Always',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          resources: {},
        },
      ],
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      enableServiceLinks: true,
    });
  });

  it('creates with generation 1 and a Pending status with the QoS class', () => {
    const { obj } = create(pods, pod());
    expect(obj.metadata?.generation).toBe(1);
    expect(obj.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    const guaranteed = create(pods, pod({ containers: [{ name: 'c', image: 'nginx:1.27', resources: { limits: { cpu: '500m', memory: '1Gi' } } }] })).obj;
    expect(guaranteed.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    const container = (guaranteed.spec as { containers: Record<string, unknown>[] }).containers[0]!;
    expect(container.resources).toEqual({ limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    expect(container.imagePullPolicy).toBe('IfNotPresent');
  });

  it('adds the SchedulingGated condition for gated pods', () => {
    const { obj } = create(pods, pod({ schedulingGates: [{ name: 'g' }] }));
    expect((obj.status as { conditions: unknown[] }).conditions).toEqual([
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: '2026-01-02T03:04:05Z',
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ]);
  });

  it('keeps status and bumps generation only on spec changes', () => {
    const old: KubeObject = { ...create(pods, pod()).obj, status: { phase: 'Running' } };
    const same = update(pods, { ...structuredClone(old), status: { phase: 'Failed' }, metadata: { ...old.metadata, labels: { a: 'b' } } }, old);
    expect(same.obj.metadata?.generation).toBe(1);
    expect(same.obj.status).toEqual({ phase: 'Running' });
    const changed = structuredClone(old);
    (changed.spec as Record<string, unknown>).activeDeadlineSeconds = 5;
    expect(update(pods, changed, old).obj.metadata?.generation).toBe(2);
  });

  it('warns about names that are not DNS labels, on create only', () => {
    const { warnings } = create(pods, { ...pod(), metadata: { name: 'web.v1', namespace: 'default' } });
    expect(warnings).toEqual([
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
  });
});

describe('Service', () => {
  const fresh = () => typesFor(createBuiltinContext())('', 'services');

  it('defaults and allocates a ClusterIP from 10.96.0.0/12', () => {
    const { obj, errors } = create(fresh(), { metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
    expect(errors).toEqual([]);
    expect(obj.spec).toEqual({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv4'],
      clusterIPs: ['10.96.0.2'],
      clusterIP: '10.96.0.2',
    });
    expect(obj.status).toEqual({ loadBalancer: {} });
    expect(obj.metadata?.generation).toBeUndefined();
  });

  it('hands out unique IPs and rejects a taken one', () => {
    const svc = fresh();
    const a = create(svc, { metadata: { name: 'a' }, spec: { ports: [{ port: 80 }] } }).obj;
    const b = create(svc, { metadata: { name: 'b' }, spec: { ports: [{ port: 80 }] } }).obj;
    expect((a.spec as Record<string, unknown>).clusterIP).not.toBe((b.spec as Record<string, unknown>).clusterIP);
    const taken = (a.spec as Record<string, unknown>).clusterIP as string;
    expect(create(svc, { metadata: { name: 'c' }, spec: { clusterIP: taken, ports: [{ port: 80 }] } }).errors).toEqual([
      `spec.clusterIPs: Invalid value: ["${taken}"]: failed to allocate IP ${taken}: provided IP is already allocated`,
    ]);
  });

  it('serves headless and selectorless headless services like the real allocator', () => {
    const svc = fresh();
    const headless = create(svc, { metadata: { name: 'h' }, spec: { clusterIP: 'None', selector: { a: 'b' } } }).obj.spec;
    expect(headless).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
    const selectorless = create(svc, { metadata: { name: 'h2' }, spec: { clusterIP: 'None' } }).obj.spec;
    expect(selectorless).toMatchObject({ clusterIPs: ['None'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' });
  });

  it('allocates NodePorts and keeps allocations on a resubmitted manifest', () => {
    const svc = fresh();
    const old = create(svc, { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ name: 'http', port: 80 }] } }).obj;
    expect(old.spec).toMatchObject({ externalTrafficPolicy: 'Cluster', ports: [{ name: 'http', port: 80, nodePort: 30000, protocol: 'TCP', targetPort: 80 }] });
    const resubmitted = update(svc, { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ name: 'http', port: 80 }] } }, old).obj;
    expect(resubmitted.spec).toMatchObject({ clusterIP: (old.spec as Record<string, unknown>).clusterIP, ports: [{ nodePort: 30000 }] });
    expect(resubmitted.status).toEqual({ loadBalancer: {} });
    const toClusterIP = update(svc, { ...structuredClone(old), spec: { ...(old.spec as object), type: 'ClusterIP' } }, old).obj;
    expect((toClusterIP.spec as { ports: Record<string, unknown>[] }).ports[0]!.nodePort).toBeUndefined();
  });
});

describe('other core kinds', () => {
  it('creates PVCs Pending with volumeMode Filesystem and keeps status on update', () => {
    const pvc = type('', 'persistentvolumeclaims');
    const { obj } = create(pvc, { metadata: { name: 'data' }, spec: {}, status: { phase: 'Bound' } });
    expect(obj.spec).toEqual({ volumeMode: 'Filesystem' });
    expect(obj.status).toEqual({ phase: 'Pending' });
    expect(update(pvc, { metadata: { name: 'data' }, spec: {} }, { ...obj, status: { phase: 'Bound' } }).obj.status).toEqual({ phase: 'Bound' });
  });

  it('lets Nodes set status on create and fills the Go zero-value structs', () => {
    const { obj } = create(type('', 'nodes'), { metadata: { name: 'n' }, spec: { podCIDR: '10.244.0.0/24' }, status: { capacity: { cpu: '4' } } });
    expect(obj.spec).toEqual({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'] });
    expect(obj.status).toMatchObject({ capacity: { cpu: '4' }, allocatable: { cpu: '4' }, daemonEndpoints: { kubeletEndpoint: { Port: 0 } } });
    expect((obj.status as { nodeInfo: Record<string, string> }).nodeInfo.kubeletVersion).toBe('');
  });

  it('keeps only the names of a ServiceAccount secrets', () => {
    const { obj } = create(type('', 'serviceaccounts'), { metadata: { name: 'sa' }, secrets: [{ name: 'tok', namespace: 'x', uid: 'u' }] });
    expect(obj.secrets).toEqual([{ name: 'tok' }]);
  });

  it('defaults Endpoints ports and warns about the deprecated API', () => {
    const ep = type('', 'endpoints');
    const { obj, warnings } = create(ep, { metadata: { name: 'e' }, subsets: [{ ports: [{ port: 80 }] }] });
    expect(obj.subsets).toEqual([{ ports: [{ port: 80, protocol: 'TCP' }] }]);
    expect(warnings).toEqual(['v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice']);
    expect(ep.requestWarnings).toEqual(warnings);
  });

  it('runs the legacy Event validation', () => {
    const events = type('', 'events');
    expect(create(events, { metadata: { name: 'e', namespace: 'ns1' }, involvedObject: { namespace: 'ns2' } }).errors).toEqual([
      'involvedObject.namespace: Invalid value: "ns2": does not match event.namespace',
    ]);
    expect(create(events, { metadata: { name: 'e', namespace: 'ns1' }, eventTime: '2026-01-01T00:00:00.000000Z', involvedObject: { namespace: 'ns1' } }).errors).toEqual([
      'reportingController: Required value',
      // IsQualifiedName("") adds its own two texts, as in Go.
      'reportingController: Invalid value: "": name part must be non-empty',
      `reportingController: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
  });
});
