// Listing custom resources stored at another version: no conversion, None conversion, and an
// in-process conversion webhook (one ConversionReview per list). Run alone with
// `node bench/conversion.ts`; `npm run bench` includes its section.
import * as k8s from '@kubernetes/client-node';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { interleavedRounds } from './machine.ts';

const G = 'bench.example.com';
const SERVICE = { namespace: 'default', name: 'converter', path: '/convert' };

function crd(strategy: 'None' | 'Webhook') {
  const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { value: { type: 'string' } } } } } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${G}` },
    spec: {
      group: G,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        { name: 'v1beta1', served: true, storage: true, schema },
        { name: 'v1', served: true, storage: false, schema },
      ],
      conversion: strategy === 'None' ? { strategy } : { strategy, webhook: { conversionReviewVersions: ['v1'], clientConfig: { service: SERVICE } } },
    },
  };
}

async function setUp(strategy: 'None' | 'Webhook', count: number): Promise<FakeCluster> {
  const cluster = await createFakeCluster();
  cluster.serveWebhook(SERVICE, (review) => ({
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: review.request.objects.map((o: object) => ({ ...o, apiVersion: review.request.desiredAPIVersion })) },
  }));
  await cluster.apply(crd(strategy));
  await cluster.apply(Array.from({ length: count }, (_, i) => ({ apiVersion: `${G}/v1beta1`, kind: 'Widget', metadata: { name: `w-${i}`, namespace: 'default' }, spec: { value: String(i) } })));
  return cluster;
}

export async function conversionSection(count = 500, runs = 30): Promise<string> {
  const rows: string[] = [];
  const none = await setUp('None', count);
  const webhook = await setUp('Webhook', count);
  const cases: Array<[string, FakeCluster, string]> = [
    ['stored version (no conversion)', none, 'v1beta1'],
    ['None conversion', none, 'v1'],
    ['webhook conversion (in-process)', webhook, 'v1'],
  ];
  // Interleaved, one list of each case per round in a shuffled order, so no case is measured
  // coldest (the first case of a sequence used to pay the process's warm-up).
  const { results, loadBefore, loadAfter } = await interleavedRounds(
    cases.map(([name, cluster, version]): [string, () => Promise<unknown>] => {
      const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
      return [name, () => custom.listNamespacedCustomObject({ group: G, version, namespace: 'default', plural: 'widgets' })];
    }),
    runs,
    5,
  );
  for (const { name, samples } of results) {
    const s = [...samples].sort((a, b) => a - b);
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    rows.push(`| ${name} | ${runs} | ${mean.toFixed(2)} | ${s[Math.floor(s.length / 2)]!.toFixed(2)} | ${s[Math.min(s.length - 1, Math.floor(s.length * 0.99))]!.toFixed(2)} |`);
  }
  await none.close();
  await webhook.close();
  return `## Conversion between CRD versions

A list of ${count} custom resources stored at v1beta1, read through client-node at v1beta1 and at v1; the cases interleaved
(one list of each per round, shuffled order) after 5 warm-up rounds. Load average (1 min) before/after: ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}.

| case | runs | mean (ms) | p50 (ms) | p99 (ms) |
| --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await conversionSection());
  process.exit(0);
}
