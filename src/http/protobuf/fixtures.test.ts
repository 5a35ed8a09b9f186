// Real kubectl 1.32 protobuf bodies (see testdata/README.md) against kubectl's own JSON rendering
// of the same objects: same keys, same values, same order.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeKubernetesProtobuf } from './decode.ts';

const dir = new URL('./testdata/', import.meta.url);
const hex = (name: string) => Buffer.from(readFileSync(new URL(`${name}.pb.hex`, dir), 'utf8').trim(), 'hex');
const kubectlJson = (name: string): unknown => JSON.parse(readFileSync(new URL(`${name}.kubectl.json`, dir), 'utf8'));

/** kubectl 1.32 prints a zero creationTimestamp as null; the 1.36 types omit it (omitzero). */
function dropNullCreationTimestamps(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNullCreationTimestamps);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([k, x]) => !(k === 'creationTimestamp' && x === null)).map(([k, x]) => [k, dropNullCreationTimestamps(x)]));
  }
  return v;
}

const cases: [fixture: string, apiVersion: string, kind: string][] = [
  ['configmap', 'v1', 'ConfigMap'],
  ['deployment', 'apps/v1', 'Deployment'],
  ['secret', 'v1', 'Secret'],
  ['secret-docker', 'v1', 'Secret'],
  ['namespace', 'v1', 'Namespace'],
  ['job', 'batch/v1', 'Job'],
  ['cronjob', 'batch/v1', 'CronJob'],
  ['role', 'rbac.authorization.k8s.io/v1', 'Role'],
  ['clusterrole', 'rbac.authorization.k8s.io/v1', 'ClusterRole'],
  ['rolebinding', 'rbac.authorization.k8s.io/v1', 'RoleBinding'],
  ['clusterrolebinding', 'rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
  ['service', 'v1', 'Service'],
  ['serviceaccount', 'v1', 'ServiceAccount'],
  ['quota', 'v1', 'ResourceQuota'],
  ['ingress', 'networking.k8s.io/v1', 'Ingress'],
  ['pdb', 'policy/v1', 'PodDisruptionBudget'],
  ['priorityclass', 'scheduling.k8s.io/v1', 'PriorityClass'],
  ['job-from-cronjob', 'batch/v1', 'Job'],
];

describe('kubectl 1.32 protobuf captures', () => {
  it.each(cases)('%s decodes to what kubectl -o json prints', (fixture, apiVersion, kind) => {
    const decoded = decodeKubernetesProtobuf(hex(fixture));
    expect(decoded.apiVersion).toBe(apiVersion);
    expect(decoded.kind).toBe(kind);
    const want = dropNullCreationTimestamps(kubectlJson(fixture));
    expect(decoded.object).toStrictEqual(want);
    // key order too: encoding/json writes Go declaration order
    expect(JSON.stringify(decoded.object)).toBe(JSON.stringify(want));
  });

  it('create configmap', () => {
    expect(decodeKubernetesProtobuf(hex('configmap')).object).toStrictEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'demo' }, data: { a: 'b' } });
  });

  it('create secret generic: bytes as base64', () => {
    expect(decodeKubernetesProtobuf(hex('secret')).object).toStrictEqual({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's' }, data: { k: 'dg==' } });
  });

  it('create namespace: struct fields are always written', () => {
    expect(decodeKubernetesProtobuf(hex('namespace')).object).toStrictEqual({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'n' }, spec: {}, status: {} });
  });

  it('create deployment', () => {
    const { object } = decodeKubernetesProtobuf(hex('deployment'));
    expect(object).toMatchObject({
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} }] } },
        strategy: {},
      },
      status: {},
    });
  });

  it('create token: non-omitempty nil fields are null, as Go prints them', () => {
    expect(decodeKubernetesProtobuf(hex('tokenrequest')).object).toStrictEqual({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: {},
      spec: { audiences: null, expirationSeconds: 600, boundObjectRef: null },
      status: { token: '', expirationTimestamp: null },
    });
  });

  it('every proper prefix of a capture fails with ProtobufDecodeError, never anything else', () => {
    const body = hex('job-from-cronjob');
    for (let n = 0; n < body.length; n++) {
      try {
        decodeKubernetesProtobuf(body.subarray(0, n));
      } catch (err) {
        expect((err as Error).name).toBe('ProtobufDecodeError');
        continue;
      }
      // A cut exactly between fields of the envelope is still well-formed proto.
      expect(n).toBeGreaterThan(4);
    }
  });
});
