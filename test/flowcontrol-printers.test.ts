// The Tables of FlowSchemas and PriorityLevelConfigurations (printFlowSchema,
// printPriorityLevelConfiguration of pkg/printers/internalversion/printers.go, v1.36) through raw
// Table requests, and kubectl get: a FlowSchema list prints by matching precedence, then name.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';
import { fetchTableNames } from './support/table.ts';

let cluster: FakeCluster;
let url: string;

const table = (path: string) => fetchTableNames(url, path);

beforeAll(async () => {
  cluster = await createFakeCluster();
  url = (await cluster.listen()).url;
  const fc = cluster.kubeConfig.makeApiClient(k8s.FlowcontrolApiserverV1Api);
  const subjects = [{ kind: 'Group', group: { name: 'system:authenticated' } }];
  const rules = [{ subjects, resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }];
  await fc.createFlowSchema({ body: { metadata: { name: 'zeta' }, spec: { priorityLevelConfiguration: { name: 'workload' }, matchingPrecedence: 500, rules } } });
  await fc.createFlowSchema({ body: { metadata: { name: 'beta' }, spec: { priorityLevelConfiguration: { name: 'workload' }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' }, rules } } });
  await fc.createFlowSchema({ body: { metadata: { name: 'alpha' }, spec: { priorityLevelConfiguration: { name: 'exempt' }, matchingPrecedence: 9000, rules } } });
  await fc.createPriorityLevelConfiguration({ body: { metadata: { name: 'exempt' }, spec: { type: 'Exempt', exempt: {} } } });
  await fc.createPriorityLevelConfiguration({
    body: { metadata: { name: 'workload' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } } },
  });
  await fc.createPriorityLevelConfiguration({ body: { metadata: { name: 'reject' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } } });
});
afterAll(() => cluster.close());

describe('Tables', () => {
  it('prints flow schemas by matching precedence then name, MissingPL ? without an APF controller', async () => {
    expect(await table('/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas')).toEqual({
      columns: ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
      rows: [
        ['beta', 'workload', 500, 'ByUser', '?'],
        ['zeta', 'workload', 500, '<none>', '?'],
        ['alpha', 'exempt', 9000, '<none>', '?'],
      ],
    });
  });

  it('prints priority levels with <none> where there are no limits or queues', async () => {
    expect(await table('/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations')).toEqual({
      columns: ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
      rows: [
        ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'],
        ['reject', 'Limited', 5, '<none>', '<none>', '<none>'],
        ['workload', 'Limited', 30, 64, 6, 50],
      ],
    });
  });
});

describe.skipIf(!kubectlAvailable)('kubectl get', () => {
  it('prints the flow schemas in precedence order', async () => {
    const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
    const lines = (out: string) => out.trim().split('\n').map((l) => l.split(/\s{2,}/).filter(Boolean));
    const fs = lines((await kubectl(['get', 'flowschemas'])).stdout);
    expect(fs.map((r) => r.slice(0, 4))).toEqual([
      ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD'],
      ['beta', 'workload', '500', 'ByUser'],
      ['zeta', 'workload', '500', '<none>'],
      ['alpha', 'exempt', '9000', '<none>'],
    ]);
  });
});
