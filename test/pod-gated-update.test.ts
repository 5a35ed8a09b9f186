// ValidatePodUpdate's relaxations for pods that still have scheduling gates (pkg/apis/core/
// validation, v1.36) through client-node: a gated pod may gain nodeSelector keys and node affinity
// requirements, never lose or change them; an ungated pod may change neither. Values are printed
// as Go marshals the internal structs (Go field names).
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { expectStatus } from './support/status.ts';
import { invalidCauses as invalid, statusCauses as causes, useValidationCluster } from './support/validation.ts';

const api = useValidationCluster();

const GATES = [{ name: 'example.com/wait' }];
const TERMS = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';
const A: k8s.V1NodeSelectorRequirement = { key: 'a', operator: 'In', values: ['x'] };
const B: k8s.V1NodeSelectorRequirement = { key: 'b', operator: 'Exists' };
const required = (...terms: k8s.V1NodeSelectorRequirement[][]): k8s.V1Affinity => ({
  nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms.map((matchExpressions) => ({ matchExpressions })) } },
});

const createPod = (name: string, spec: Partial<k8s.V1PodSpec>) =>
  api.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec } } });
const replacePod = (pod: k8s.V1Pod) => api.core.replaceNamespacedPod({ name: pod.metadata!.name!, namespace: 'default', body: pod });

describe('nodeSelector of a gated pod', () => {
  it('may gain keys', async () => {
    const pod = await createPod('ns-add', { schedulingGates: GATES, nodeSelector: { a: 'b' } });
    pod.spec!.nodeSelector = { a: 'b', zone: 'z1' };
    expect((await replacePod(pod)).spec!.nodeSelector).toEqual({ a: 'b', zone: 'z1' });
  });

  it('may not lose or change one', async () => {
    const pod = await createPod('ns-change', { schedulingGates: GATES, nodeSelector: { a: 'b' } });
    pod.spec!.nodeSelector = { a: 'z', c: 'd' };
    expect(await invalid(replacePod(pod))).toEqual(['spec.nodeSelector: Invalid value: {"a":"z","c":"d"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)']);
  });

  it('is immutable once the pod has no gates', async () => {
    const pod = await createPod('ns-ungated', { nodeSelector: { a: 'b' } });
    pod.spec!.nodeSelector = { a: 'b', zone: 'z1' };
    const [cause, ...rest] = causes(await expectStatus(replacePod(pod), { code: 422, reason: 'Invalid' }));
    expect(rest).toEqual([]);
    expect(cause!.field).toBe('spec');
    expect(cause!.message.split('\n')[0]).toMatch(/^Forbidden: pod updates may not change fields other than /);
  });
});

describe('node affinity of a gated pod', () => {
  it('may gain requirements in its terms, and be set where there was none', async () => {
    const pod = await createPod('na-add', { schedulingGates: GATES, affinity: required([A]) });
    pod.spec!.affinity = required([B, A]);
    expect((await replacePod(pod)).spec!.affinity).toEqual(required([B, A]));
    const bare = await createPod('na-new', { schedulingGates: GATES });
    bare.spec!.affinity = required([A]);
    expect((await replacePod(bare)).spec!.affinity).toEqual(required([A]));
  });

  it('may not lose or change a requirement', async () => {
    const pod = await createPod('na-change', { schedulingGates: GATES, affinity: required([A]) });
    pod.spec!.affinity = required([B]);
    expect(await invalid(replacePod(pod))).toEqual([
      `${TERMS}[0]: Invalid value: {"MatchExpressions":[{"Key":"b","Operator":"Exists","Values":null}],"MatchFields":null}: only additions are allowed (no mutations or deletions)`,
    ]);
  });

  it('may not add or remove terms', async () => {
    const pod = await createPod('na-terms', { schedulingGates: GATES, affinity: required([A]) });
    pod.spec!.affinity = required([A], [B]);
    expect(await invalid(replacePod(pod))).toEqual([
      `${TERMS}: Invalid value: [{"MatchExpressions":[{"Key":"a","Operator":"In","Values":["x"]}],"MatchFields":null},{"MatchExpressions":[{"Key":"b","Operator":"Exists","Values":null}],"MatchFields":null}]: no additions/deletions to non-empty NodeSelectorTerms list are allowed`,
    ]);
  });
});
