import { describe, expect, it } from 'vitest';
import {
  decodableKinds,
  decodeKubernetesProtobuf,
  decodeKubernetesProtobufEnvelope,
  decodeProtobufMessage,
  ProtobufDecodeError,
} from './decode.ts';
import { isKubernetesProtobuf } from './media-type.ts';
import { messageForKind, messages } from './schemas/index.ts';

// ---- a tiny proto2 encoder, enough to build bodies by hand ----

type Part = Uint8Array | number[];

function cat(...parts: Part[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? b | 0x80 : b);
  } while (v);
  return out;
}

const key = (field: number, wireType: number) => varint((field << 3) | wireType);
const int = (field: number, n: number | bigint) => [...key(field, 0), ...varint(n)];
const bool = (field: number, b: boolean) => int(field, b ? 1 : 0);
const bytes = (field: number, b: Part) => [...key(field, 2), ...varint(b.length), ...b];
const str = (field: number, s: string) => bytes(field, [...Buffer.from(s, 'utf8')]);
const msg = (field: number, ...parts: Part[]) => bytes(field, cat(...parts));
/** map<string, V>: one entry message {key = 1, value = 2} per pair. */
const map = (field: number, entries: Record<string, string | Uint8Array>) =>
  Object.entries(entries).flatMap(([k, v]) => msg(field, str(1, k), typeof v === 'string' ? str(2, v) : bytes(2, v)));

const MAGIC = [0x6b, 0x38, 0x73, 0x00];
function envelope(apiVersion: string, kind: string, raw: Part): Uint8Array {
  return cat(MAGIC, msg(1, str(1, apiVersion), str(2, kind)), bytes(2, raw), str(3, ''), str(4, ''));
}

/** ObjectMeta as gogo writes it: every non-pointer field, creationTimestamp as an empty Time. */
function objectMeta(name: string, extra: Part[] = []): number[] {
  return msg(1, str(1, name), str(2, ''), str(3, ''), str(4, ''), str(5, ''), str(6, ''), int(7, 0), bytes(8, []), ...extra);
}

function decodeError(fn: () => unknown): ProtobufDecodeError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProtobufDecodeError);
    return err as ProtobufDecodeError;
  }
  throw new Error('expected a ProtobufDecodeError');
}

describe('isKubernetesProtobuf', () => {
  it('matches the media type, ignoring case and parameters', () => {
    expect(isKubernetesProtobuf('application/vnd.kubernetes.protobuf')).toBe(true);
    expect(isKubernetesProtobuf('Application/VND.Kubernetes.Protobuf; charset=binary')).toBe(true);
    expect(isKubernetesProtobuf('application/json')).toBe(false);
    expect(isKubernetesProtobuf('application/vnd.kubernetes.protobuf.foo')).toBe(false);
    expect(isKubernetesProtobuf(undefined)).toBe(false);
    expect(isKubernetesProtobuf(null)).toBe(false);
    expect(isKubernetesProtobuf('')).toBe(false);
  });
});

describe('decodeKubernetesProtobuf', () => {
  it('ConfigMap: data, binaryData, labels, annotations, immutable=false', () => {
    const raw = cat(
      objectMeta('demo', [str(3, 'ns')].concat([map(11, { b: '2', a: '1' }), map(12, { note: 'hi' })]) as Part[]),
      map(2, { z: 'last', k: 'v' }),
      map(3, { bin: Uint8Array.of(0, 1, 2, 0xff) }),
      bool(4, false),
    );
    const got = decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw));
    expect(got.apiVersion).toBe('v1');
    expect(got.kind).toBe('ConfigMap');
    expect(got.object).toStrictEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'demo', namespace: 'ns', labels: { a: '1', b: '2' }, annotations: { note: 'hi' } },
      immutable: false,
      data: { k: 'v', z: 'last' },
      binaryData: { bin: 'AAEC/w==' },
    });
    // Go order: kind, apiVersion, then declaration order; map keys sorted
    expect(Object.keys(got.object)).toEqual(['kind', 'apiVersion', 'metadata', 'immutable', 'data', 'binaryData']);
    expect(Object.keys((got.object.data as object))).toEqual(['k', 'z']);
  });

  it('a pointer field absent from the wire stays absent', () => {
    const got = decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', objectMeta('c')));
    expect(got.object).toStrictEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c' } });
  });

  it('Secret: bytes values are base64, an empty value is ""', () => {
    const raw = cat(objectMeta('s'), map(2, { k: Buffer.from('v'), empty: new Uint8Array(0) }), str(3, 'Opaque'), map(4, { plain: 'text' }));
    expect(decodeKubernetesProtobuf(envelope('v1', 'Secret', raw)).object).toStrictEqual({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 's' },
      data: { empty: '', k: 'dg==' },
      stringData: { plain: 'text' },
      type: 'Opaque',
    });
  });

  it('Namespace: zero structs are still written', () => {
    const raw = cat(objectMeta('n'), msg(2), msg(3, str(1, '')));
    expect(decodeKubernetesProtobuf(envelope('v1', 'Namespace', raw)).object).toStrictEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'n' },
      spec: {},
      status: {},
    });
    // and when not on the wire at all
    expect(decodeKubernetesProtobuf(envelope('v1', 'Namespace', objectMeta('n'))).object).toStrictEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'n' },
      spec: {},
      status: {},
    });
  });

  it('Deployment: replicas, selector, template with a container, ports, resources, IntOrString', () => {
    const container = cat(
      str(1, 'web'),
      str(2, 'nginx:1.25'),
      str(3, 'nginx'),
      str(3, '-g'),
      msg(6, str(1, 'http'), int(2, 0), int(3, 8080), str(4, 'TCP'), str(5, '')),
      msg(6, str(1, ''), int(2, 0), int(3, 53), str(4, 'UDP'), str(5, '')),
      msg(7, str(1, 'MODE'), str(2, 'prod')),
      msg(8, map(1, { cpu: cat(str(1, '500m')) }), map(2, { memory: cat(str(1, '64Mi')) })),
      msg(11, msg(1, msg(2, str(1, '/ready'), msg(2, int(1, 1), int(2, 0), str(3, 'http')))), int(2, 3)),
      str(13, ''),
      str(14, 'Always'),
      bool(16, false),
    );
    const podSpec = cat(msg(2, container), str(3, 'Always'), int(4, 30), str(6, 'ClusterFirst'));
    const raw = cat(
      objectMeta('web', [map(11, { app: 'web' })]),
      msg(
        2,
        int(1, 2),
        msg(2, map(1, { app: 'web' })),
        msg(3, objectMeta('', [map(11, { app: 'web' })]), msg(2, podSpec)),
        msg(4, str(1, 'RollingUpdate'), msg(2, msg(1, int(1, 0), int(2, 1), str(3, '')), msg(2, int(1, 0), int(2, 0), str(3, '')))),
        int(5, 0),
        int(6, 10),
        bool(7, false),
      ),
      msg(3),
    );
    const { object } = decodeKubernetesProtobuf(envelope('apps/v1', 'Deployment', raw));
    expect(object).toStrictEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx:1.25',
                command: ['nginx', '-g'],
                ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }],
                env: [{ name: 'MODE', value: 'prod' }],
                resources: { limits: { cpu: '500m' }, requests: { memory: '64Mi' } },
                readinessProbe: { httpGet: { path: '/ready', port: 'http' }, initialDelaySeconds: 3 },
                imagePullPolicy: 'Always',
              },
            ],
            restartPolicy: 'Always',
            terminationGracePeriodSeconds: 30,
            dnsPolicy: 'ClusterFirst',
          },
        },
        // maxUnavailable 1 (int), maxSurge 0: an IntOrString struct is never omitted
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
        revisionHistoryLimit: 10,
      },
      status: {},
    });
  });

  it('RoleBinding: non-omitempty strings are kept even when empty', () => {
    const raw = cat(
      objectMeta('rb', [str(3, 'default')]),
      msg(2, str(1, 'User'), str(2, 'rbac.authorization.k8s.io'), str(3, 'alice'), str(4, '')),
      msg(2, str(1, 'ServiceAccount'), str(2, ''), str(3, 'sa'), str(4, 'default')),
      msg(3, str(1, ''), str(2, 'Role'), str(3, 'reader')),
    );
    expect(decodeKubernetesProtobuf(envelope('rbac.authorization.k8s.io/v1', 'RoleBinding', raw)).object).toStrictEqual({
      kind: 'RoleBinding',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'rb', namespace: 'default' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'default' },
      ],
      roleRef: { apiGroup: '', kind: 'Role', name: 'reader' },
    });
  });

  it('Role without rules: a nil non-omitempty slice is null', () => {
    expect(decodeKubernetesProtobuf(envelope('rbac.authorization.k8s.io/v1', 'Role', objectMeta('r'))).object).toStrictEqual({
      kind: 'Role',
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: { name: 'r' },
      rules: null,
    });
  });

  it('ObjectMeta times, ownerReferences with pointer bools, generation, managedFields', () => {
    const raw = cat(
      msg(
        1,
        str(1, 'x'),
        int(7, 3),
        msg(8, int(1, 1700000000), int(2, 999)), // nanos are dropped, as metav1.Time does
        msg(9, int(1, 0)), // the Unix epoch is not the zero time
        int(10, 0),
        msg(13, str(1, 'ReplicaSet'), str(3, 'rs'), str(4, 'uid-1'), str(5, 'apps/v1'), bool(6, true), bool(7, false)),
        str(14, 'a/b'),
        msg(17, str(1, 'kubectl'), str(2, 'Update'), str(3, 'v1'), msg(4, int(1, 1)), str(6, 'FieldsV1'), msg(7, str(1, '{"f:data":{".":{}}}'))),
      ),
    );
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw)).object).toStrictEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'x',
        generation: 3,
        creationTimestamp: '2023-11-14T22:13:20Z',
        deletionTimestamp: '1970-01-01T00:00:00Z',
        deletionGracePeriodSeconds: 0,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'uid-1', controller: true, blockOwnerDeletion: false }],
        finalizers: ['a/b'],
        managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '1970-01-01T00:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {} } } }],
      },
    });
  });

  it('a Time holding Go’s zero instant is null, and omitted where omitzero', () => {
    const goZero = -62135596800;
    const raw = cat(msg(1, str(1, 'x'), msg(8, int(1, goZero)), msg(9, int(1, goZero))));
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw)).object.metadata).toStrictEqual({ name: 'x', deletionTimestamp: null });
  });

  it('int64 and int32: negatives, large values, packed repeated', () => {
    const pod = cat(
      objectMeta('p'),
      msg(
        2,
        msg(2, str(1, 'c')),
        int(5, 9007199254740991n),
        msg(14, int(2, -1), bytes(4, cat(varint(1), varint(2), varint(3000000000)))), // packed
        int(25, -5),
      ),
    );
    const spec = decodeKubernetesProtobuf(envelope('v1', 'Pod', pod)).object.spec as Record<string, unknown>;
    expect(spec.activeDeadlineSeconds).toBe(9007199254740991);
    expect(spec.priority).toBe(-5);
    expect(spec.securityContext).toStrictEqual({ runAsUser: -1, supplementalGroups: [1, 2, 3000000000] });
  });

  it('merges a repeated singular message, last scalar wins', () => {
    const raw = cat(msg(1, str(1, 'a'), str(3, 'ns1')), msg(1, str(1, 'b')), bool(4, true), bool(4, false));
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw)).object).toStrictEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'b', namespace: 'ns1' },
      immutable: false,
    });
  });

  it('skips unknown fields of every wire type, groups included', () => {
    const unknown = cat(int(99, 5), [...key(98, 1), 1, 2, 3, 4, 5, 6, 7, 8], [...key(97, 5), 1, 2, 3, 4], str(96, 'x'), key(95, 3), int(1, 7), str(2, 'y'), key(95, 4));
    const raw = cat(unknown, objectMeta('u', [unknown]), map(2, { k: 'v' }));
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw)).object).toStrictEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'u' }, data: { k: 'v' } });
    // unknown envelope fields too
    const body = cat(MAGIC, int(9, 1), msg(1, str(1, 'v1'), str(2, 'ConfigMap'), int(3, 1)), bytes(2, objectMeta('u')));
    expect(decodeKubernetesProtobuf(body).object).toStrictEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'u' } });
  });

  it('DeleteOptions in any group version', () => {
    const raw = cat(int(1, 0), msg(2, str(1, 'uid-1')), str(4, 'Foreground'), str(5, 'All'));
    for (const apiVersion of ['v1', 'apps/v1', 'meta.k8s.io/v1']) {
      const got = decodeKubernetesProtobuf(envelope(apiVersion, 'DeleteOptions', raw));
      expect(got.object).toStrictEqual({ kind: 'DeleteOptions', apiVersion, gracePeriodSeconds: 0, preconditions: { uid: 'uid-1' }, propagationPolicy: 'Foreground', dryRun: ['All'] });
    }
    expect(decodeProtobufMessage('meta.v1.DeleteOptions', Uint8Array.from(bool(3, true)))).toStrictEqual({ orphanDependents: true });
  });

  it('Service: IntOrString as string, pointer strings', () => {
    const raw = cat(
      objectMeta('svc'),
      msg(2, msg(1, str(1, 'web'), str(2, 'TCP'), int(3, 80), msg(4, int(1, 1), int(2, 0), str(3, 'http')), int(5, 0)), map(2, { app: 'web' }), str(4, 'ClusterIP'), str(17, 'SingleStack')),
    );
    expect(decodeKubernetesProtobuf(envelope('v1', 'Service', raw)).object).toStrictEqual({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'svc' },
      spec: { ports: [{ name: 'web', protocol: 'TCP', port: 80, targetPort: 'http' }], selector: { app: 'web' }, type: 'ClusterIP', ipFamilyPolicy: 'SingleStack' },
      status: { loadBalancer: {} },
    });
  });

  it('Volume sources are inlined into the Volume', () => {
    const pod = cat(objectMeta('p'), msg(2, msg(1, str(1, 'cfg'), msg(2, msg(19, msg(1, str(1, 'cm')), int(3, 420)))), msg(2, str(1, 'c'))));
    const spec = decodeKubernetesProtobuf(envelope('v1', 'Pod', pod)).object.spec as Record<string, unknown>;
    expect(spec.volumes).toStrictEqual([{ name: 'cfg', configMap: { name: 'cm', defaultMode: 420 } }]);
  });

  it('a "__proto__" map key stays a plain key', () => {
    const raw = cat(objectMeta('p'), map(2, { ['__proto__']: 'x' }));
    const data = decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw)).object.data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__']);
  });

  it('invalid UTF-8 becomes U+FFFD per byte, as Go prints it', () => {
    const raw = cat(msg(1, bytes(1, [0x61, 0xff, 0x62])));
    expect(decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', raw)).object.metadata).toStrictEqual({ name: 'a\uFFFDb' });
  });

  it('applies endpoint defaults for a missing kind or version (copyKindDefaults)', () => {
    const body = cat(MAGIC, msg(1, str(1, ''), str(2, '')), bytes(2, objectMeta('d')));
    expect(decodeError(() => decodeKubernetesProtobuf(body)).message).toBe(`Object 'Kind' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:""}'`);
    expect(decodeKubernetesProtobuf(body, { apiVersion: 'v1', kind: 'ConfigMap' }).object).toStrictEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'd' } });
    const noVersion = cat(MAGIC, msg(1, str(2, 'ConfigMap')), bytes(2, objectMeta('d')));
    const err = decodeError(() => decodeKubernetesProtobuf(noVersion));
    expect(err.reason).toBe('missingKind');
    expect(err.message).toBe(`Object 'apiVersion' is missing in 'runtime.TypeMeta{APIVersion:"", Kind:"ConfigMap"}'`);
    expect(decodeKubernetesProtobuf(noVersion, { apiVersion: 'v1' }).apiVersion).toBe('v1');
  });

  it('exposes the envelope', () => {
    const env = decodeKubernetesProtobufEnvelope(cat(MAGIC, msg(1, str(1, 'v1'), str(2, 'Pod')), bytes(2, [1, 2]), str(3, 'gzip'), str(4, 'application/vnd.kubernetes.protobuf')));
    expect(env).toMatchObject({ apiVersion: 'v1', kind: 'Pod', contentEncoding: 'gzip', contentType: 'application/vnd.kubernetes.protobuf' });
    expect([...env.raw]).toEqual([1, 2]);
  });

  describe('errors', () => {
    it('empty, bad magic, magic only', () => {
      expect(decodeError(() => decodeKubernetesProtobuf(new Uint8Array(0))).message).toBe('empty data');
      expect(decodeError(() => decodeKubernetesProtobuf(Buffer.from('{"kind":"ConfigMap"}'))).message).toBe(
        'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]',
      );
      expect(decodeError(() => decodeKubernetesProtobuf(Uint8Array.of(0x6b, 0x38))).message).toMatch(/expected prefix/);
      expect(decodeError(() => decodeKubernetesProtobuf(Uint8Array.of(0x6b, 0x38, 0x73, 0x01, 0))).message).toMatch(/expected prefix/);
      expect(decodeError(() => decodeKubernetesProtobuf(Uint8Array.from(MAGIC))).message).toBe('empty body');
    });

    it('unknown kind', () => {
      const err = decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'Widget', [])));
      expect(err.reason).toBe('unknownKind');
      expect(err.message).toBe(`no kind "Widget" is registered for version "v1" in kubefake's protobuf decoder`);
      // a known kind under another group version is unknown too
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('apps/v1', 'ConfigMap', []))).reason).toBe('unknownKind');
    });

    it('truncated input', () => {
      const body = envelope('v1', 'ConfigMap', cat(objectMeta('demo'), map(2, { a: 'b' })));
      for (let n = 5; n < body.length; n++) {
        const err = (() => {
          try {
            decodeKubernetesProtobuf(body.subarray(0, n));
            return undefined;
          } catch (e) {
            return e;
          }
        })();
        // cutting between envelope fields leaves valid proto; anywhere else is an error
        if (err !== undefined) expect(err).toBeInstanceOf(ProtobufDecodeError);
      }
      expect(decodeError(() => decodeKubernetesProtobuf(body.subarray(0, 20))).message).toBe('unexpected EOF');
      // a truncated inner message whose length prefix itself is consistent
      const inner = envelope('v1', 'ConfigMap', [...key(1, 2), 10, ...str(1, 'x')]);
      expect(decodeError(() => decodeKubernetesProtobuf(inner)).message).toBe('unexpected EOF');
    });

    it('wrong wire type for a known field', () => {
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', int(2, 1)))).message).toBe('proto: wrong wireType = 0 for field data');
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', str(4, 'x')))).message).toBe('proto: wrong wireType = 2 for field immutable');
    });

    it('illegal tags, stray end group, overflowing varints, absurd lengths', () => {
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', [0x00, 0x00]))).message).toBe('proto: ConfigMap: illegal tag 0 (wire type 0)');
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', key(5, 4)))).message).toBe('proto: ConfigMap: wiretype end group for non-group');
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', [...key(9, 0), ...Array(10).fill(0xff), 1]))).message).toBe('proto: integer overflow');
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', [...key(9, 2), ...varint(2n ** 40n)]))).message).toBe(
        'proto: negative length found during unmarshaling',
      );
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', [...key(9, 7)]))).message).toBe('proto: illegal wireType 7');
      expect(decodeError(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', key(9, 3)))).message).toBe('unexpected EOF');
    });

    it('bad Quantity, IntOrString and FieldsV1 payloads', () => {
      const withLimits = (q: Part) => envelope('v1', 'ResourceQuota', cat(objectMeta('q'), msg(2, map(1, { cpu: cat(q) }))));
      expect(decodeKubernetesProtobuf(withLimits(str(1, '1500m'))).object.spec).toStrictEqual({ hard: { cpu: '1500m' } });
      expect(decodeKubernetesProtobuf(withLimits([])).object.spec).toStrictEqual({ hard: { cpu: '0' } });
      expect(decodeError(() => decodeKubernetesProtobuf(withLimits(str(1, 'lots')))).message).toMatch(/^quantities must match the regular expression/);
      const svc = (ios: Part) => envelope('v1', 'Service', cat(objectMeta('s'), msg(2, msg(1, int(3, 80), msg(4, ios)))));
      expect(decodeError(() => decodeKubernetesProtobuf(svc(int(1, 2)))).message).toBe('impossible IntOrString.Type');
      const fields = envelope('v1', 'ConfigMap', msg(1, msg(17, msg(7, str(1, '{not json')))));
      expect(decodeError(() => decodeKubernetesProtobuf(fields)).message).toMatch(/FieldsV1/);
    });

    it('never throws anything but ProtobufDecodeError on random bytes', () => {
      let seed = 12345;
      const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
      const kinds = ['ConfigMap', 'Pod', 'Service', 'Secret'];
      for (let i = 0; i < 3000; i++) {
        const raw = Array.from({ length: Math.floor(rand() * 64) }, () => Math.floor(rand() * 256));
        const body = envelope('v1', kinds[i % kinds.length]!, raw);
        try {
          decodeKubernetesProtobuf(body);
        } catch (err) {
          expect(err).toBeInstanceOf(ProtobufDecodeError);
        }
      }
    });
  });
});

describe('types the generated tables reach beyond the first kinds', () => {
  it('a named slice (authorization ExtraValue) travels as { repeated items = 1 } and is the slice in JSON', () => {
    // SubjectAccessReview: spec = 2; SubjectAccessReviewSpec: user = 3, extra = 5 (map<string, ExtraValue>).
    const extra = (k: string, ...items: string[]) => msg(5, str(1, k), msg(2, ...items.map((i) => str(1, i))));
    const spec = msg(2, str(3, 'jane'), extra('scopes', 'a', 'b'), extra('empty'));
    const { object } = decodeKubernetesProtobuf(envelope('authorization.k8s.io/v1', 'SubjectAccessReview', cat(objectMeta('r'), spec)));
    expect((object.spec as Record<string, unknown>).extra).toStrictEqual({ empty: null, scopes: ['a', 'b'] });
  });

  it('MicroTime keeps microseconds (events.k8s.io Event eventTime), the zero time is null', () => {
    // events.v1.Event: eventTime = 2 (Timestamp seconds = 1, nanos = 2); reportingController = 4.
    const at = msg(2, int(1, 1_700_000_000), int(2, 123_456_789));
    const { object } = decodeKubernetesProtobuf(envelope('events.k8s.io/v1', 'Event', cat(objectMeta('e'), at, str(4, 'me'))));
    expect(object.eventTime).toBe('2023-11-14T22:13:20.123456Z');
    const zero = decodeKubernetesProtobuf(envelope('events.k8s.io/v1', 'Event', cat(objectMeta('e'), bytes(2, [])))).object;
    expect(zero.eventTime).toBeNull();
  });

  it('RawExtension embeds its JSON bytes (ControllerRevision data), and refuses bytes that are not JSON', () => {
    // apps.v1.ControllerRevision: data = 2 (RawExtension raw = 1), revision = 3.
    const revision = (raw: string) => envelope('apps/v1', 'ControllerRevision', cat(objectMeta('r'), msg(2, str(1, raw)), int(3, 4)));
    expect(decodeKubernetesProtobuf(revision('{"spec":{"x":1}}')).object).toMatchObject({ data: { spec: { x: 1 } }, revision: 4 });
    expect(decodeError(() => decodeKubernetesProtobuf(revision('not json'))).message).toBe('json: error calling MarshalJSON for type runtime.RawExtension: invalid JSON in raw');
  });

  it('covers every kind a default v1.36 apiserver serves from k8s.io/api, autoscaling v1 and v2 apart', () => {
    const kinds = decodableKinds();
    for (const k of ['autoscaling/v1 HorizontalPodAutoscaler', 'autoscaling/v2 HorizontalPodAutoscaler', 'policy/v1 Eviction', 'v1 Binding', 'storage.k8s.io/v1 StorageClass', 'resource.k8s.io/v1 ResourceClaim']) {
      expect(kinds).toContain(k);
    }
    expect(messageForKind('autoscaling/v1', 'HorizontalPodAutoscaler')).toBe('autoscaling.v1.HorizontalPodAutoscaler');
    expect(messageForKind('autoscaling/v2', 'HorizontalPodAutoscaler')).toBe('autoscaling.v2.HorizontalPodAutoscaler');
  });
});

describe('schema tables', () => {
  it('compile, and every message reference resolves', () => {
    expect(messages.check().length).toBeGreaterThan(150);
  });

  it('every decodable kind has a root message', () => {
    for (const entry of decodableKinds()) {
      const [apiVersion, kind] = entry.split(' ') as [string, string];
      const body = envelope(apiVersion === '*' ? 'v1' : apiVersion, kind, []);
      expect(decodeKubernetesProtobuf(body).kind).toBe(kind);
    }
  });
});
