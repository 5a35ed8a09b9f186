// What the admission chain costs a create that no webhook matches: ConfigMap creates through
// client-node on a cluster without admission (the chain taken out of the registry context), with
// and with the default chain and webhook configurations that do not match (other resources, a
// namespace selector, an object selector). Interleaved rounds. The bound the project keeps:
// no more than 10% over no admission. Run alone with `node bench/admission.ts`.
import * as k8s from '@kubernetes/client-node';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { clusterInternals } from '../src/cluster/internals.ts';
import { interleavedRounds, loadNote, median, quantile } from './machine.ts';

const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }];

function webhook(name: string) {
  return { name, clientConfig: { url: `https://hooks.example.com/${name}` }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'] };
}

/** One cluster with four webhooks none of which matches a ConfigMap create in `default`. */
async function setUp(): Promise<FakeCluster> {
  const cluster = await createFakeCluster();
  const selector = { matchLabels: { webhooks: 'on' } };
  await cluster.apply([
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [webhook('m1.example.com'), { ...webhook('m2.example.com'), rules: [{ ...rules[0], resources: ['configmaps'] }], namespaceSelector: selector }] },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [webhook('v1.example.com'), { ...webhook('v2.example.com'), objectSelector: selector }] },
  ]);
  return cluster;
}

export async function admissionSection(rounds = 1000): Promise<string> {
  // One cluster for both cases, the chain taken out of its registry context for one of them: two
  // clusters differ by more than admission (each has its own host on the shared msw network).
  const cluster = await setUp();
  const context = clusterInternals(cluster).registryContext;
  const chain = context.admission;
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  let n = 0;
  const create = () => core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: `cm-${n++}` }, data: { a: '1' } } });
  const { results, loadBefore, loadAfter } = await interleavedRounds(
    [
      [
        'no admission',
        () => {
          context.admission = undefined;
          return create();
        },
      ],
      [
        'admission, 4 webhooks, none matching',
        () => {
          context.admission = chain;
          return create();
        },
      ],
    ],
    rounds,
    100,
  );
  const base = median(results[0]!.samples);
  const baseCpu = median(results[0]!.cpuSamples);
  const over = (x: number, b: number) => `${x >= b ? '+' : ''}${(((x - b) / b) * 100).toFixed(1)}%`;
  const rows = results.map(({ name, samples, cpuSamples }) => {
    const p50 = median(samples);
    const cpu = median(cpuSamples);
    return `| ${name} | ${rounds} | ${p50.toFixed(3)} | ${quantile(samples, 0.99).toFixed(3)} | ${over(p50, base)} | ${cpu.toFixed(3)} | ${over(cpu, baseCpu)} |`;
  });
  await cluster.close();
  return `## Admission: a create no webhook matches

A ConfigMap create through client-node on one cluster with two mutating and two validating webhooks that do not match it
(other resources, a namespace selector, an object selector), with its admission chain and without it, interleaved (one create
of each per round, alternating order) after 100 warm-up rounds; the bound kept is at most 10% over no admission.
${loadNote()}; load average (1 min) before/after: ${loadBefore.toFixed(2)} / ${loadAfter.toFixed(2)}.

| case | runs | p50 (ms) | p99 (ms) | p50 vs no admission | CPU p50 (ms) | CPU vs no admission |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await admissionSection());
}
