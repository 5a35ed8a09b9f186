// The Tables of the admission kinds (printMutatingWebhook, printValidatingWebhook,
// printValidatingAdmissionPolicy(Binding), printMutatingAdmissionPolicy(Binding) of
// pkg/printers/internalversion/printers.go, v1.36) as raw HTTP and kubectl see them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { fetchTableNames } from './support/table.ts';

let cluster: FakeCluster;
let url: string;
const webhook = (name: string) => ({ name, clientConfig: { url: 'https://hooks.example.com/hook' }, sideEffects: 'None', admissionReviewVersions: ['v1'] });
const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] };

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}
const table = (resource: string) => fetchTableNames(url, `/apis/admissionregistration.k8s.io/v1/${resource}`);

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  const base = '/apis/admissionregistration.k8s.io/v1';
  await post(`${base}/validatingwebhookconfigurations`, { metadata: { name: 'two' }, webhooks: [webhook('a.example.com'), webhook('b.example.com')] });
  await post(`${base}/mutatingwebhookconfigurations`, { metadata: { name: 'one' }, webhooks: [webhook('c.example.com')] });
  await post(`${base}/validatingadmissionpolicies`, { metadata: { name: 'plain' }, spec: { matchConstraints: rules, validations: [{ expression: 'true' }, { expression: '1 == 1' }] } });
  await post(`${base}/validatingadmissionpolicies`, {
    metadata: { name: 'param' },
    spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, matchConstraints: rules, validations: [{ expression: 'true' }] },
  });
  await post(`${base}/validatingadmissionpolicybindings`, { metadata: { name: 'none' }, spec: { policyName: 'plain', validationActions: ['Deny'] } });
  await post(`${base}/validatingadmissionpolicybindings`, {
    metadata: { name: 'named' },
    spec: { policyName: 'param', validationActions: ['Deny'], paramRef: { name: 'limits', namespace: 'team', parameterNotFoundAction: 'Deny' } },
  });
  await post(`${base}/validatingadmissionpolicybindings`, {
    metadata: { name: 'selected' },
    spec: {
      policyName: 'param',
      validationActions: ['Audit'],
      paramRef: { selector: { matchLabels: { tier: 'web', app: 'x' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['a', 'b'] }] }, parameterNotFoundAction: 'Allow' },
    },
  });
});
afterAll(() => cluster.close());

describe('admission Tables', () => {
  it('counts webhooks', async () => {
    expect(await table('validatingwebhookconfigurations')).toEqual({ columns: ['Name', 'Webhooks', 'Age'], rows: [['two', 2]] });
    expect(await table('mutatingwebhookconfigurations')).toEqual({ columns: ['Name', 'Webhooks', 'Age'], rows: [['one', 1]] });
  });

  it('counts validations and names the param kind', async () => {
    expect(await table('validatingadmissionpolicies')).toEqual({
      columns: ['Name', 'Validations', 'ParamKind', 'Age'],
      rows: [['param', 1, 'v1/ConfigMap'], ['plain', 2, '<unset>']],
    });
  });

  it('names the policy and the param of a binding, a selector as Go prints the struct', async () => {
    expect(await table('validatingadmissionpolicybindings')).toEqual({
      columns: ['Name', 'PolicyName', 'ParamRef', 'Age'],
      rows: [
        ['named', 'param', 'team/limits'],
        ['none', 'plain', '<unset>'],
        ['selected', 'param', '&LabelSelector{MatchLabels:map[string]string{app: x,tier: web,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:env,Operator:In,Values:[a b],},},}'],
      ],
    });
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get', () => {
  it('prints the webhook and policy columns', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const header = (out: string) => out.split('\n')[0]!.split(/\s{2,}/).filter(Boolean);
    expect(header((await kubectl(['get', 'validatingwebhookconfigurations'])).stdout)).toEqual(['NAME', 'WEBHOOKS', 'AGE']);
    expect(header((await kubectl(['get', 'validatingadmissionpolicies'])).stdout)).toEqual(['NAME', 'VALIDATIONS', 'PARAMKIND', 'AGE']);
  });
});
