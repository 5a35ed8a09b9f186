// ValidatingAdmissionPolicy and its bindings through client-node: matching, params, variables,
// validations and their messages and reasons, validationActions, match conditions, failure
// policy, and the real texts (k8s.io/apiserver pkg/admission/plugin/policy/validating).
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectInvalid, expectStatus } from './support/status.ts';
import { captureWarnings } from './support/warnings.ts';
import { exampleWidgetsCrd } from './support/widgets-crd.ts';

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

function policy(name: string, spec: Json): k8s.V1ValidatingAdmissionPolicy {
  return { metadata: { name }, spec: { matchConstraints: configMapRules, ...spec } } as k8s.V1ValidatingAdmissionPolicy;
}
function binding(name: string, policyName: string, spec: Json = {}): k8s.V1ValidatingAdmissionPolicyBinding {
  return { metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } } as k8s.V1ValidatingAdmissionPolicyBinding;
}
async function install(p: k8s.V1ValidatingAdmissionPolicy, ...bindings: k8s.V1ValidatingAdmissionPolicyBinding[]) {
  await admission.createValidatingAdmissionPolicy({ body: p });
  for (const b of bindings) await admission.createValidatingAdmissionPolicyBinding({ body: b });
}
const configMap = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>) => ({ metadata: { name, ...(labels ? { labels } : {}) }, data });
const createCM = (name: string, data: Record<string, string> = {}, labels?: Record<string, string>, options?: k8s.ConfigurationOptions) =>
  core.createNamespacedConfigMap({ namespace: 'default', body: configMap(name, data, labels) }, options);

const denied = (policyName: string, bindingName: string, resourceName: string, msg: string, code = 422, reason = 'Invalid') => {
  const message = `configmaps "${resourceName}" is forbidden: ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}' denied request: ${msg}`;
  return { code, reason, message, details: { name: resourceName, kind: 'configmaps', causes: [{ message: `ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}' denied request: ${msg}` }] } };
};

describe('validations', () => {
  it('denies with the message, as a 422 Invalid by default, and admits what passes', async () => {
    await install(policy('max-keys', { validations: [{ expression: 'size(object.data) <= 1', message: 'at most one key' }] }), binding('max-keys-b', 'max-keys'));
    await expectStatus(createCM('two', { a: '1', b: '2' }), denied('max-keys', 'max-keys-b', 'two', 'at most one key'));
    expect((await createCM('one', { a: '1' })).metadata?.name).toBe('one');
  });

  it('messageExpression, then message, then the expression make the message; reason sets the code', async () => {
    await install(
      policy('p', {
        validations: [
          { expression: "!('a' in object.data)", messageExpression: "'key a is not allowed in ' + object.metadata.name", reason: 'Forbidden' },
          { expression: "!('b' in object.data)", message: ' no b ' },
          { expression: "!('c' in object.data) " },
          { expression: "!('d' in object.data)", messageExpression: "'two\\nlines'", message: 'fallback for d', reason: 'RequestEntityTooLarge' },
        ],
      }),
      binding('b', 'p'),
    );
    await expectStatus(createCM('x', { a: '' }), denied('p', 'b', 'x', 'key a is not allowed in x', 403, 'Forbidden'));
    await expectStatus(createCM('x', { b: '' }), denied('p', 'b', 'x', 'no b'));
    await expectStatus(createCM('x', { c: '' }), denied('p', 'b', 'x', "failed expression: !('c' in object.data)"));
    await expectStatus(createCM('x', { d: '' }), denied('p', 'b', 'x', 'fallback for d', 413, 'RequestEntityTooLarge'));
  });

  it('a runtime error denies under failurePolicy Fail and is ignored under Ignore', async () => {
    await install(policy('p', { validations: [{ expression: "object.data.missing == 'x'" }] }), binding('b', 'p'));
    await expectStatus(createCM('x', { a: '' }), denied('p', 'b', 'x', "expression 'object.data.missing == 'x'' resulted in error: no such key: missing"));
    await admission.patchValidatingAdmissionPolicy({ name: 'p', body: { spec: { failurePolicy: 'Ignore' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect((await createCM('x', { a: '' })).metadata?.name).toBe('x');
  });

  it('an expression over the per-call cost limit fails with cel-go’s text', async () => {
    const ten = '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]';
    const expression = `${ten}.all(a, ${ten}.all(b, ${ten}.all(c, ${ten}.all(d, ${ten}.all(e, ${ten}.all(f, true))))))`;
    await install(policy('p', { validations: [{ expression }] }), binding('b', 'p'));
    await expectStatus(createCM('x'), denied('p', 'b', 'x', `expression '${expression}' resulted in error: operation cancelled: actual cost limit exceeded`));
  });

  it('validations that together spend more than the runtime budget fail the policy', async () => {
    const ten = '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]';
    // About 470,000 units each: 22 of them pass 10,000,000.
    const expression = `${ten}.all(a, ${ten}.all(b, ${ten}.all(c, ${ten}.all(d, ${ten}.all(e, true)))))`;
    await install(policy('p', { validations: Array.from({ length: 22 }, () => ({ expression })) }), binding('b', 'p'));
    await expectStatus(createCM('x'), denied('p', 'b', 'x', 'validation failed due to running out of cost budget, no further validation rules will be run'));
  });

  it('sees request, oldObject, namespaceObject, variables and an allow-all authorizer', async () => {
    await core.patchNamespace({ name: 'default', body: { metadata: { labels: { tier: 'gold' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await install(
      policy('p', {
        variables: [
          { name: 'keys', expression: 'object.data.size()' },
          { name: 'many', expression: 'variables.keys > 1' },
        ],
        validations: [
          {
            expression: "!variables.many || request.operation != 'UPDATE'",
            messageExpression: "request.operation + ' of ' + request.name + ' by ' + request.userInfo.username + ' in ' + namespaceObject.metadata.labels.tier + ' from ' + string(size(oldObject.data)) + ' keys'",
          },
          { expression: "authorizer.group('').resource('configmaps').namespace('default').check('update').allowed()" },
          { expression: "authorizer.requestResource.check('update').allowed() && !authorizer.serviceAccount('default', 'sa').path('/healthz').check('get').errored()" },
        ],
      }),
      binding('b', 'p'),
    );
    await createCM('x', { a: '1', b: '2' });
    const current = await core.readNamespacedConfigMap({ name: 'x', namespace: 'default' });
    await expectStatus(core.replaceNamespacedConfigMap({ name: 'x', namespace: 'default', body: { ...current, data: { a: '1', b: '2', c: '3' } } }), denied('p', 'b', 'x', 'UPDATE of x by system:admin in gold from 2 keys'));
  });
});

describe('validationActions', () => {
  it('Warn answers a warning and admits; Audit records the failure; Deny refuses', async () => {
    await install(
      policy('p', { validations: [{ expression: "!('bad' in object.data)", message: 'no bad key' }], auditAnnotations: [{ key: 'keys', valueExpression: "'keys: ' + string(size(object.data))" }] }),
      binding('warn', 'p', { validationActions: ['Warn', 'Audit'] }),
    );
    const capture = captureWarnings();
    expect((await createCM('x', { bad: '' }, undefined, capture.options)).metadata?.name).toBe('x');
    expect(capture.warnings()).toEqual(["Validation failed for ValidatingAdmissionPolicy 'p' with binding 'warn': no bad key"]);
    const ok = captureWarnings();
    await createCM('y', { fine: '' }, undefined, ok.options);
    expect(ok.warnings()).toEqual([]);
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('deny', 'p') });
    await expectStatus(createCM('z', { bad: '' }), denied('p', 'deny', 'z', 'no bad key'));
  });
});

describe('auditAnnotations', () => {
  it('a valueExpression that fails denies under Fail; one of another type is refused when the policy is written', async () => {
    await install(policy('p', { auditAnnotations: [{ key: 'size', valueExpression: "'keys: ' + string(size(object.data.x))" }] }), binding('b', 'p', { validationActions: ['Audit'] }));
    await expectStatus(createCM('x', { a: '' }), denied('p', 'b', 'x', "expression ''keys: ' + string(size(object.data.x))' resulted in error: no such key: x"));
    expect((await createCM('y', { x: 'abc' })).metadata?.name).toBe('y');
    await expectInvalid(admission.createValidatingAdmissionPolicy({ body: policy('q', { auditAnnotations: [{ key: 'n', valueExpression: '1' }] }) }), { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicy', name: 'q' }, [
      { field: 'spec.auditAnnotations[0].valueExpression', reason: 'FieldValueInvalid', message: 'Invalid value: "1": must evaluate to one of [string null_type] but got int' },
    ]);
  });
});

describe('matching', () => {
  it('resourceRules, excludeResourceRules with resourceNames, objectSelector and the binding’s namespaceSelector', async () => {
    await core.createNamespace({ body: { metadata: { name: 'prod', labels: { env: 'prod' } } } });
    await install(
      policy('p', {
        matchConstraints: { ...configMapRules, excludeResourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['*'], resources: ['configmaps'], resourceNames: ['exempt'] }], objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] } },
        validations: [{ expression: 'false', message: 'no' }],
      }),
      binding('b', 'p', { matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } } } }),
    );
    await createCM('a');
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'prod', body: configMap('a') }), denied('p', 'b', 'a', 'no'));
    await core.createNamespacedConfigMap({ namespace: 'prod', body: configMap('exempt') });
    await core.createNamespacedConfigMap({ namespace: 'prod', body: configMap('skipped', {}, { skip: 'yes' }) });
    await core.createNamespacedSecret({ namespace: 'prod', body: { metadata: { name: 's' } } });
  });

  it('a namespace’s own requests carry its name as their namespace: its labels meet the namespaceSelector and request.namespace is its name', async () => {
    await core.createNamespace({ body: { metadata: { name: 'guarded', labels: { guard: 'on' } } } });
    await core.createNamespace({ body: { metadata: { name: 'open' } } });
    await install(
      policy('p', {
        matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['namespaces'] }], namespaceSelector: { matchLabels: { guard: 'on' } } },
        validations: [{ expression: 'false', messageExpression: "'keep ' + request.namespace" }],
      }),
      binding('b', 'p'),
    );
    const message = `namespaces "guarded" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: keep guarded`;
    await expectStatus(core.deleteNamespace({ name: 'guarded' }), { code: 422, reason: 'Invalid', message });
    await expect(core.deleteNamespace({ name: 'open' })).resolves.toBeDefined();
  });

  it('never applies to the admission policy resources themselves', async () => {
    await install(
      policy('p', { matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }] }, validations: [{ expression: 'false', message: 'nothing' }] }),
      binding('b', 'p'),
    );
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('b2', 'p') });
    await admission.deleteValidatingAdmissionPolicy({ name: 'p' });
    await expect(createCM('x')).resolves.toBeDefined();
  });

  it('matchPolicy Equivalent matches another version of the resource and evaluates the object converted to it; Exact does not', async () => {
    await install(
      policy('hpa', {
        matchConstraints: { resourceRules: [{ apiGroups: ['autoscaling'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['horizontalpodautoscalers'] }] },
        validations: [
          {
            expression: 'object.spec.maxReplicas <= 5',
            messageExpression: "'target ' + string(object.spec.targetCPUUtilizationPercentage) + '% seen as ' + request.kind.version + ', requested as ' + request.requestKind.version",
          },
        ],
      }),
      binding('b', 'hpa'),
    );
    const v2 = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV2Api);
    const hpa = (name: string): k8s.V2HorizontalPodAutoscaler => ({
      metadata: { name },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      },
    });
    await expectStatus(v2.createNamespacedHorizontalPodAutoscaler({ namespace: 'default', body: hpa('web') }), {
      code: 422,
      message: `horizontalpodautoscalers.autoscaling "web" is forbidden: ValidatingAdmissionPolicy 'hpa' with binding 'b' denied request: target 70% seen as v1, requested as v2`,
    });
    await admission.patchValidatingAdmissionPolicy({ name: 'hpa', body: { spec: { matchConstraints: { matchPolicy: 'Exact' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await v2.createNamespacedHorizontalPodAutoscaler({ namespace: 'default', body: hpa('web') });
  });

  it('matchConditions: a false condition skips the policy; an error fails it under Fail', async () => {
    await install(
      policy('p', {
        matchConditions: [
          { name: 'labelled', expression: "has(object.metadata.labels) && 'check' in object.metadata.labels" },
          { name: 'errors', expression: "object.metadata.labels.check != 'boom' || object.data.nope == ''" },
        ],
        validations: [{ expression: 'false', message: 'checked' }],
      }),
      binding('b', 'p'),
    );
    await createCM('plain');
    await expectStatus(createCM('x', {}, { check: 'yes' }), denied('p', 'b', 'x', 'checked'));
    await expectStatus(createCM('y', { a: '' }, { check: 'boom' }), denied('p', 'b', 'y', "expression 'object.metadata.labels.check != 'boom' || object.data.nope == ''' resulted in error: no such key: nope"));
  });
});

describe('params', () => {
  const paramPolicy = () =>
    policy('p', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['secrets'] }] },
      validations: [{ expression: "!has(object.metadata.labels) || !('forbidden' in object.metadata.labels) || params.data.allow == 'yes'", messageExpression: "'params ' + params.metadata.name + ' forbid it'" }],
    });

  it('paramRef by name from the request’s namespace; a missing param denies or allows as parameterNotFoundAction says', async () => {
    await install(paramPolicy(), binding('deny-missing', 'p', { paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } }));
    const secrets = (name: string) => core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name, labels: { forbidden: '' } } } });
    await expectStatus(secrets('s1'), {
      code: 422,
      reason: 'Invalid',
      message: "secrets \"s1\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'deny-missing' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
    });
    await createCM('limits', { allow: 'no' });
    await expectStatus(secrets('s1'), { code: 422, message: "secrets \"s1\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'deny-missing' denied request: params limits forbid it" });
    await core.patchNamespacedConfigMap({ name: 'limits', namespace: 'default', body: { data: { allow: 'yes' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await secrets('s1');
    await admission.deleteValidatingAdmissionPolicyBinding({ name: 'deny-missing' });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('allow-missing', 'p', { paramRef: { name: 'absent', parameterNotFoundAction: 'Allow' } }) });
    await secrets('s2');
  });

  it('paramRef by selector evaluates once per param; an unknown paramKind fails the policy', async () => {
    await install(paramPolicy(), binding('b', 'p', { paramRef: { selector: { matchLabels: { role: 'param' } }, parameterNotFoundAction: 'Allow' } }));
    await createCM('one', { allow: 'yes' }, { role: 'param' });
    await createCM('two', { allow: 'no' }, { role: 'param' });
    await expectStatus(core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's', labels: { forbidden: '' } } } }), {
      code: 422,
      message: "secrets \"s\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: params two forbid it",
    });
    await install(
      policy('unknown', { paramKind: { apiVersion: 'example.com/v1', kind: 'Nothing' }, matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['serviceaccounts'] }] }, validations: [{ expression: 'true' }] }),
      binding('ub', 'unknown'),
    );
    await expectStatus(core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name: 'sa' } } }), {
      code: 422,
      message: "serviceaccounts \"sa\" is forbidden: ValidatingAdmissionPolicy 'unknown' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Nothing'",
    });
  });
});

describe('custom resource params', () => {
  it('a param is read at the paramKind’s version, not the storage version', async () => {
    const schema = { openAPIV3Schema: { type: 'object', properties: { maxKeys: { type: 'integer' } } } };
    await cluster.apply({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'limits.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Cluster',
        names: { plural: 'limits', singular: 'limit', kind: 'Limit' },
        versions: [
          { name: 'v1', served: true, storage: true, schema },
          { name: 'v2', served: true, storage: false, schema },
        ],
      },
    });
    await cluster.apply({ apiVersion: 'example.com/v1', kind: 'Limit', metadata: { name: 'small' }, maxKeys: 1 });
    await install(
      policy('p', {
        paramKind: { apiVersion: 'example.com/v2', kind: 'Limit' },
        validations: [{ expression: 'size(object.data) <= params.maxKeys', messageExpression: "'at most ' + string(params.maxKeys) + ' keys (' + params.apiVersion + ')'" }],
      }),
      binding('b', 'p', { paramRef: { name: 'small', parameterNotFoundAction: 'Deny' } }),
    );
    await expectStatus(createCM('x', { a: '', b: '' }), denied('p', 'b', 'x', 'at most 1 keys (example.com/v2)'));
  });
});

describe('the policy objects’ own validation', () => {
  it('a compile error is a 422 with the compiler’s text; defaults are filled in', async () => {
    await expectInvalid(admission.createValidatingAdmissionPolicy({ body: policy('bad', { validations: [{ expression: 'object.data.size() > limit', message: 'x' }, { expression: '1' }] }) }), { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicy', name: 'bad' }, [
      {
        field: 'spec.validations[0].expression',
        reason: 'FieldValueInvalid',
        message: "Invalid value: \"object.data.size() > limit\": compilation failed: ERROR: <input>:1:22: undeclared reference to 'limit' (in container '')\n | object.data.size() > limit\n | .....................^",
      },
      { field: 'spec.validations[1].expression', reason: 'FieldValueInvalid', message: 'Invalid value: "1": must evaluate to bool but got int' },
    ]);
    const created = await admission.createValidatingAdmissionPolicy({ body: policy('good', { validations: [{ expression: 'true' }] }) });
    expect(created.spec?.failurePolicy).toBe('Fail');
    expect(created.spec?.matchConstraints).toEqual({ ...configMapRules, resourceRules: [{ ...configMapRules.resourceRules[0], scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
  });

  it('variables, match conditions, params and audit annotations are checked with the real texts', async () => {
    await expectInvalid(
      admission.createValidatingAdmissionPolicy({
        body: policy('bad', {
          paramKind: { apiVersion: 'example.com/v1/x', kind: 'Bad_Kind' },
          matchConditions: [
            { name: 'same', expression: 'true' },
            { name: 'same', expression: 'variables.x' },
          ],
          variables: [
            { name: 'not-an-ident', expression: 'true' },
            { name: 'later', expression: 'variables.first' },
          ],
          validations: [{ expression: 'true', message: ' ', reason: 'Conflict' }],
          auditAnnotations: [{ key: 'a', valueExpression: "'x'" }, { key: 'a', valueExpression: 'null' }],
        }),
      }),
      { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicy', name: 'bad' },
      [
        { field: 'spec.paramKind.apiVersion', reason: 'FieldValueInvalid', message: 'Invalid value: "example.com/v1/x": unexpected GroupVersion string: example.com/v1/x' },
        {
          field: 'spec.paramKind.kind',
          reason: 'FieldValueInvalid',
          message: `Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
        },
        {
          field: 'spec.matchConditions[1].expression',
          reason: 'FieldValueInvalid',
          message: "Invalid value: \"variables.x\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')\n | variables.x\n | ^",
        },
        { field: 'spec.matchConditions[1].name', reason: 'FieldValueDuplicate', message: 'Duplicate value: "same"' },
        { field: 'spec.variables[0].name', reason: 'FieldValueInvalid', message: 'Invalid value: "not-an-ident": name is not a valid CEL identifier' },
        {
          field: 'spec.variables[1].expression',
          reason: 'FieldValueInvalid',
          message: "Invalid value: \"variables.first\": compilation failed: ERROR: <input>:1:10: undefined field 'first'\n | variables.first\n | .........^",
        },
        { field: 'spec.validations[0].message', reason: 'FieldValueInvalid', message: 'Invalid value: " ": message must be non-empty if specified' },
        { field: 'spec.validations[0].reason', reason: 'FieldValueNotSupported', message: 'Unsupported value: "Conflict": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"' },
        { field: 'spec.auditAnnotations[1].key', reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"' },
      ],
    );
  });

  it('a binding needs validationActions, and a paramRef needs its parameterNotFoundAction', async () => {
    await expectInvalid(admission.createValidatingAdmissionPolicyBinding({ body: binding('b', 'p', { validationActions: ['Deny', 'Warn'], paramRef: { name: 'x' } }) }), { group: 'admissionregistration.k8s.io', kind: 'ValidatingAdmissionPolicyBinding', name: 'b' }, [
      { field: 'spec.paramRef.parameterNotFoundAction', reason: 'FieldValueRequired', message: 'Required value' },
      { field: 'spec.validationActions', reason: 'FieldValueInvalid', message: 'Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)' },
    ]);
  });
});

describe('tables', () => {
  it('a binding’s ParamRef column: namespace/name, */name, or the selector as Go prints it', async () => {
    await admission.createValidatingAdmissionPolicy({ body: policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] }) });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('a', 'p', { paramRef: { name: 'x', namespace: 'ns', parameterNotFoundAction: 'Allow' } }) });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding('b', 'p', { paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } }) });
    await admission.createValidatingAdmissionPolicyBinding({
      body: binding('c', 'p', { paramRef: { selector: { matchLabels: { z: '1', a: '2' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v', 'w'] }] }, parameterNotFoundAction: 'Allow' } }),
    });
    const table = async (plural: string) => {
      const res = await cluster.handle(new Request(`${cluster.url}/apis/admissionregistration.k8s.io/v1/${plural}`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
      const body = (await res.json()) as { columnDefinitions: { name: string }[]; rows: { cells: unknown[] }[] };
      return { columns: body.columnDefinitions.map((c) => c.name), rows: body.rows.map((r) => r.cells.slice(0, -1)) };
    };
    expect(await table('validatingadmissionpolicies')).toEqual({ columns: ['Name', 'Validations', 'ParamKind', 'Age'], rows: [['p', 1, 'v1/ConfigMap']] });
    expect(await table('validatingadmissionpolicybindings')).toEqual({
      columns: ['Name', 'PolicyName', 'ParamRef', 'Age'],
      rows: [
        ['a', 'p', 'ns/x'],
        ['b', 'p', '*/x'],
        ['c', 'p', '&LabelSelector{MatchLabels:map[string]string{a: 2,z: 1,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[v w],},},}'],
      ],
    });
  });
});

describe('status', () => {
  it('the status controller writes observedGeneration and the type check’s warnings for the matched kinds', async () => {
    const deployments = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments', 'replicasets'] }] };
    await admission.createValidatingAdmissionPolicy({
      body: policy('typed', {
        matchConstraints: deployments,
        validations: [{ expression: 'object.spec.replicsa > 1', messageExpression: "'replicas: ' + string(object.spec.replicas)" }, { expression: "object.metadata.name != ''" }],
      }),
    });
    await cluster.settle();
    const read = await admission.readValidatingAdmissionPolicy({ name: 'typed' });
    const warning = (kind: string) =>
      `apps/v1, Kind=${kind}: compilation failed: ERROR: <input>:1:12: undefined field 'replicsa'\n | object.spec.replicsa > 1\n | ...........^\n`;
    expect(read.status).toEqual({
      observedGeneration: 1,
      typeChecking: { expressionWarnings: [{ fieldRef: 'spec.validations[0].expression', warning: `${warning('Deployment')}\n${warning('ReplicaSet')}` }] },
    });
    await admission.patchValidatingAdmissionPolicy({ name: 'typed', body: { spec: { validations: [{ expression: 'object.spec.replicas > 1' }] } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await cluster.settle();
    expect((await admission.readValidatingAdmissionPolicy({ name: 'typed' })).status).toEqual({ observedGeneration: 2, typeChecking: {} });
  });

  it('type-checks against a custom resource’s schema', async () => {
    await cluster.apply(exampleWidgetsCrd([{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }]));
    await admission.createValidatingAdmissionPolicy({
      body: policy('widgets', {
        matchConstraints: { resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['widgets'] }] },
        validations: [{ expression: "object.spec.size < 10 && object.metadata.name != ''" }, { expression: "object.spec.size == 'big'" }],
      }),
    });
    await cluster.settle();
    expect((await admission.readValidatingAdmissionPolicy({ name: 'widgets' })).status?.typeChecking).toEqual({
      expressionWarnings: [
        {
          fieldRef: 'spec.validations[1].expression',
          warning: "example.com/v1, Kind=Widget: compilation failed: ERROR: <input>:1:18: found no matching overload for '_==_' applied to '(int, string)'\n | object.spec.size == 'big'\n | .................^\n",
        },
      ],
    });
  });
});

describe('request.userInfo on a subresource', () => {
  it('a patch of pods/status is admitted as the user who sent it, not the cluster administrator', async () => {
    await using authCluster = await createFakeCluster({ auth: true });
    await authCluster.apply([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'p' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['pods/status'] }] },
          validations: [{ expression: 'false', messageExpression: "'status by ' + request.userInfo.username" }],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'] } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'jane', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['pods/status'], verbs: ['patch'] }] },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'jane', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'jane' }, subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }] },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ]);
    const jane = authCluster.kubeConfigFor({ user: 'jane' }).makeApiClient(k8s.CoreV1Api);
    const patch = jane.patchNamespacedPodStatus({ name: 'web', namespace: 'default', body: { status: { message: 'hi' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await expectStatus(patch, {
      code: 422,
      reason: 'Invalid',
      message: "pods \"web\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: status by jane",
    });
  });
});
