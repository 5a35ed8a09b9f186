// MutatingAdmissionPolicy (GA and on by default in v1.36) through client-node: ApplyConfiguration
// and JSONPatch mutations, match conditions, params, failure policy, reinvocation, and the
// policy objects' own validation (k8s.io/apiserver pkg/admission/plugin/policy/mutating).
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectInvalid, expectStatus } from './support/status.ts';

type Json = Record<string, unknown>;

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
let admission: k8s.AdmissionregistrationV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  admission = cluster.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
});
afterEach(() => cluster.close());

const configMapRules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] };

async function install(name: string, spec: Json, bindingSpec: Json = {}) {
  await cluster.apply([
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name }, spec: { matchConstraints: configMapRules, ...spec } },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: `${name}-binding` }, spec: { policyName: name, ...bindingSpec } },
  ]);
}
const applyConfiguration = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });
const jsonPatch = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });
const createCM = (name: string, data: Record<string, string> = { a: '1' }, labels?: Record<string, string>) =>
  core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name, ...(labels ? { labels } : {}) }, data } });

describe('mutations', () => {
  it('an ApplyConfiguration merges into the object before it is stored', async () => {
    await install('add-label', { mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"team": "platform"}}, data: {"added": string(size(object.data))}}')] });
    const created = await createCM('x', { a: '1' }, { app: 'web' });
    expect(created.metadata?.labels).toEqual({ app: 'web', team: 'platform' });
    expect(created.data).toEqual({ a: '1', added: '1' });
    expect((await core.readNamespacedConfigMap({ name: 'x', namespace: 'default' })).metadata?.labels).toEqual({ app: 'web', team: 'platform' });
  });

  it('a JSONPatch applies its operations; a failed test operation leaves the object as it was', async () => {
    await install('patch', {
      mutations: [
        jsonPatch("[JSONPatch{op: 'add', path: '/metadata/annotations', value: {}}, JSONPatch{op: 'add', path: '/metadata/annotations/' + jsonpatch.escapeKey('example.com/owner'), value: request.userInfo.username}]"),
        jsonPatch("[JSONPatch{op: 'test', path: '/data/a', value: 'nope'}, JSONPatch{op: 'remove', path: '/data/a'}]"),
      ],
    });
    const created = await createCM('x');
    expect(created.metadata?.annotations).toEqual({ 'example.com/owner': 'system:admin' });
    expect(created.data).toEqual({ a: '1' });
  });

  it('matchConditions choose the objects, and mutations see the params', async () => {
    await createCM('defaults', { tier: 'gold' });
    await install(
      'tier',
      {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConditions: [{ name: 'unlabelled', expression: "!has(object.metadata.labels) || !('tier' in object.metadata.labels)" }],
        mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"tier": params.data.tier}}}')],
      },
      { paramRef: { name: 'defaults', parameterNotFoundAction: 'Deny' } },
    );
    expect((await createCM('plain')).metadata?.labels).toEqual({ tier: 'gold' });
    expect((await createCM('own', { a: '1' }, { tier: 'silver' })).metadata?.labels).toEqual({ tier: 'silver' });
  });

  it('an error refuses the write under Fail with the dispatcher’s text, and is ignored under Ignore', async () => {
    await install('broken', { mutations: [jsonPatch("[JSONPatch{op: 'remove', path: '/spec/replicas'}]")] });
    await expectStatus(createCM('x'), {
      code: 403,
      reason: 'Invalid',
      message: "policy 'broken' with binding 'broken-binding' denied request: JSON Patch: remove operation does not apply: doc is missing path: \"/spec/replicas\": missing value",
      details: { name: 'x', kind: 'configmaps', causes: [{ message: "policy 'broken' with binding 'broken-binding' denied request: JSON Patch: remove operation does not apply: doc is missing path: \"/spec/replicas\": missing value" }] },
    });
    await admission.patchMutatingAdmissionPolicy({ name: 'broken', body: { spec: { failurePolicy: 'Ignore' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect((await createCM('x')).data).toEqual({ a: '1' });
  });

  it('a runtime error in the expression is the expression’s error', async () => {
    await install('runtime', { mutations: [applyConfiguration('Object{data: {"x": object.data.nope}}')] });
    await expectStatus(createCM('x'), {
      code: 403,
      reason: 'Invalid',
      message: "policy 'runtime' with binding 'runtime-binding' denied request: expression 'Object{data: {\"x\": object.data.nope}}' resulted in error: no such key: nope",
    });
  });

  it('IfNeeded policies run again when a later policy changed the object', async () => {
    // `copy` copies the label `b` into `a`; `set-b` (after it, by name) sets `b`.
    await install('copy', { reinvocationPolicy: 'IfNeeded', mutations: [applyConfiguration('Object{data: {"a": has(object.metadata.labels) && "b" in object.metadata.labels ? object.metadata.labels["b"] : "none"}}')] });
    await install('set-b', { mutations: [applyConfiguration('Object{metadata: Object.metadata{labels: {"b": "set"}}}')] });
    expect((await createCM('x', { a: '' })).data).toEqual({ a: 'set' });
  });
});

describe('ApplyConfiguration over the kind’s schema', () => {
  const deploymentRules = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] };
  const deployment = (name: string): k8s.V1Deployment => ({
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1' }, { name: 'sidecar', image: 'proxy:1' }] } },
    },
  });

  it('merges a keyed list item by its key (containers by name)', async () => {
    await install('pin', {
      matchConstraints: deploymentRules,
      mutations: [applyConfiguration('Object{spec: Object.spec{template: Object.spec.template{spec: Object.spec.template.spec{containers: [Object.spec.template.spec.containers{name: "web", image: "nginx:2"}]}}}}')],
    });
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    const created = await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('d') });
    expect(created.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['web=nginx:2', 'sidecar=proxy:1']);
  });

  it('may not set a field of an atomic struct (a LabelSelector)', async () => {
    await install('atomic', { matchConstraints: deploymentRules, mutations: [applyConfiguration('Object{spec: Object.spec{selector: Object.spec.selector{matchLabels: {"x": "y"}}}}')] });
    const apps = cluster.kubeConfig.makeApiClient(k8s.AppsV1Api);
    await expectStatus(apps.createNamespacedDeployment({ namespace: 'default', body: deployment('d') }), {
      code: 403,
      reason: 'Invalid',
      message: "policy 'atomic' with binding 'atomic-binding' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.selector",
    });
  });
});

describe('type names', () => {
  it('a nested Object type must name its field path', async () => {
    await install('misnamed', { mutations: [applyConfiguration('Object{metadata: Object.spec{labels: {"a": "b"}}}')] });
    await expectStatus(createCM('x'), {
      code: 403,
      reason: 'Invalid',
      message: `policy 'misnamed' with binding 'misnamed-binding' denied request: type mismatch: unexpected type name "Object.spec", expected "Object.metadata", which matches field name path from root Object type`,
    });
  });
});

describe('matchPolicy Equivalent', () => {
  it('mutates an equivalent version of the object and converts the result back to the version requested', async () => {
    await install('hpa-v1', {
      matchConstraints: { resourceRules: [{ apiGroups: ['autoscaling'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['horizontalpodautoscalers'] }] },
      mutations: [applyConfiguration('Object{spec: Object.spec{minReplicas: 2, targetCPUUtilizationPercentage: 60}}')],
    });
    const v2 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV2Api);
    const created = await v2.createNamespacedHorizontalPodAutoscaler({
      namespace: 'default',
      body: { metadata: { name: 'web' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 10 } },
    });
    expect(created.spec?.minReplicas).toBe(2);
    expect(created.spec?.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }]);
  });
});

describe('the policy objects’ own validation', () => {
  it('defaults failurePolicy and reinvocationPolicy; a mutation must compile to its patch type', async () => {
    const created = (await cluster.apply({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name: 'ok' }, spec: { matchConstraints: configMapRules, mutations: [jsonPatch("[JSONPatch{op: 'add', path: '/data/x', value: 'y'}]")] } }))[0]!;
    expect(created.spec).toMatchObject({ failurePolicy: 'Fail', reinvocationPolicy: 'Never' });
    await expectInvalid(
      admission.createMutatingAdmissionPolicy({ body: { metadata: { name: 'bad' }, spec: { matchConstraints: configMapRules, mutations: [applyConfiguration('1'), { patchType: 'JSONPatch' }, { patchType: 'Merge' }] } } as k8s.V1MutatingAdmissionPolicy }),
      { group: 'admissionregistration.k8s.io', kind: 'MutatingAdmissionPolicy', name: 'bad' },
      [
        { field: 'spec.mutations[0].applyConfiguration.expression', reason: 'FieldValueInvalid', message: 'Invalid value: "1": must evaluate to Object but got int' },
        { field: 'spec.mutations[1].jsonPatch', reason: 'FieldValueRequired', message: 'Required value: must be specified when patchType is JSONPatch' },
        { field: 'spec.mutations[2].patchType', reason: 'FieldValueNotSupported', message: 'Unsupported value: "Merge": supported values: "ApplyConfiguration", "JSONPatch"' },
      ],
    );
  });

  it('neither the policy nor its binding may match DELETE (reported at the rules’ unindexed operations path); the binding’s path is spelled matchResources', async () => {
    const deleteRules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'DELETE'], resources: ['configmaps'] }] };
    await expectInvalid(
      admission.createMutatingAdmissionPolicy({ body: { metadata: { name: 'on-delete' }, spec: { matchConstraints: deleteRules, mutations: [jsonPatch("[JSONPatch{op: 'add', path: '/data/x', value: 'y'}]")] } } as k8s.V1MutatingAdmissionPolicy }),
      { group: 'admissionregistration.k8s.io', kind: 'MutatingAdmissionPolicy', name: 'on-delete' },
      [{ field: 'spec.matchConstraints.resourceRules.operations', reason: 'FieldValueNotSupported', message: 'Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"' }],
    );
    await expectInvalid(
      admission.createMutatingAdmissionPolicyBinding({ body: { metadata: { name: 'on-delete' }, spec: { policyName: 'p', matchResources: { ...deleteRules, matchPolicy: 'Sideways' } } } as k8s.V1MutatingAdmissionPolicyBinding }),
      { group: 'admissionregistration.k8s.io', kind: 'MutatingAdmissionPolicyBinding', name: 'on-delete' },
      [
        { field: 'spec.matchResources.matchPolicy', reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sideways": supported values: "Equivalent", "Exact"' },
        { field: 'spec.matchResources.resourceRules.operations', reason: 'FieldValueNotSupported', message: 'Unsupported value: "DELETE": supported values: "*", "CONNECT", "CREATE", "UPDATE"' },
      ],
    );
    const binding = await admission.createMutatingAdmissionPolicyBinding({ body: { metadata: { name: 'on-update' }, spec: { policyName: 'p', matchResources: configMapRules } } });
    expect(binding.spec?.matchResources?.resourceRules?.[0]?.operations).toEqual(['CREATE', 'UPDATE']);
  });
});
