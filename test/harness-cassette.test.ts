// Record and replay (issue 24): cluster.requests.save() writes a cassette, and a cluster created
// with { replay } answers the same session from it, byte for byte, with no state of its own.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createFakeCluster, type Cassette, type FakeCluster } from '../src/index.ts';
import { kubectlAvailable, kubectlRunner } from './support/kubectl.ts';

/** A controller-like session: writes, reads, a watch that sees two events, an error. */
async function session(cluster: FakeCluster): Promise<unknown[]> {
  const core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const seen: unknown[] = [];
  const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'settings' }, data: { mode: 'fast' } } });
  seen.push(created.metadata?.uid, created.metadata?.resourceVersion);
  const events: string[] = [];
  const twoEvents = new Promise<void>((resolve, reject) => {
    void new k8s.Watch(cluster.kubeConfig)
      .watch('/api/v1/namespaces/default/configmaps', { resourceVersion: created.metadata!.resourceVersion }, (type, obj: k8s.V1ConfigMap) => {
        events.push(`${type} ${obj.metadata?.name} ${obj.data?.mode}`);
        if (events.length === 2) resolve();
      }, (err) => (err ? reject(err) : undefined))
      .catch(reject);
  });
  await core.patchNamespacedConfigMap({ name: 'settings', namespace: 'default', body: { data: { mode: 'slow' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'other' }, data: { mode: 'off' } } });
  await twoEvents;
  seen.push(events);
  seen.push((await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((c) => `${c.metadata?.name}=${c.data?.mode}`));
  seen.push(await core.readNamespacedConfigMap({ name: 'missing', namespace: 'default' }).catch((err: k8s.ApiException<string>) => `${err.code} ${JSON.parse(err.body).message}`));
  return seen;
}

describe('record and replay', () => {
  it('replays a recorded client-node session with the same results and the same bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cassette-'));
    const file = join(dir, 'session.json');
    let recorded: unknown[];
    {
      await using recording = await createFakeCluster({ requestLog: { watchBodies: true } });
      recorded = await session(recording);
      await recording.requests.save(file);
    }
    const cassette = JSON.parse(readFileSync(file, 'utf8')) as Cassette;
    expect(cassette.interactions.map((i) => `${i.request.method} ${i.response.status}`)).toEqual([
      'POST 201',
      'GET 200', // the watch
      'PATCH 200',
      'POST 201',
      'GET 200',
      'GET 404',
    ]);

    await using replaying = await createFakeCluster({ replay: file });
    expect(await session(replaying)).toEqual(recorded);
    expect(recorded[4]).toBe('404 configmaps "missing" not found');
    // Every answer but the watch's stream is the recorded bytes.
    const answered = replaying.requests.all().filter((r) => r.verb !== 'watch');
    const bodies = await Promise.all(answered.map(async (r) => (await r.exchange()).responseBody));
    const recordedBodies = cassette.interactions.filter((i) => !i.response.watch).map((i) => ('text' in i.response.body! ? i.response.body.text : ''));
    expect(bodies.map((b) => new TextDecoder().decode(b))).toEqual(recordedBodies);
  });

  it('answers a request the cassette has no answer for with a 500 that says so', async () => {
    await using replaying = await createFakeCluster({ replay: { kubefakeCassette: 1, interactions: [] } });
    const core = replaying.kubeConfig.makeApiClient(k8s.CoreV1Api);
    const err = (await core.readNamespace({ name: 'default' }).catch((e: unknown) => e)) as k8s.ApiException<string>;
    expect(err.code).toBe(500);
    expect(JSON.parse(err.body).message).toBe('kubefake replay: no recorded answer left for GET /api/v1/namespaces/default');
  });

  it('refuses a file that is not a cassette', async () => {
    await expect(createFakeCluster({ replay: { interactions: [] } as unknown as Cassette })).rejects.toThrow('kubefake: not a kubefake cassette');
  });

  it.runIf(kubectlAvailable)('replays a kubectl session, discovery included, with the same output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubefake-cassette-'));
    const file = join(dir, 'kubectl.json');
    const commands = [
      ['create', 'configmap', 'settings', '--from-literal=mode=fast'],
      ['get', 'configmaps', 'settings', '-o', 'jsonpath={.data.mode}'],
      ['get', 'configmaps'],
    ];
    const run = async (cluster: FakeCluster) => {
      const kubectl = kubectlRunner((await cluster.listen()).kubeconfig);
      const out: string[] = [];
      for (const args of commands) {
        const result = await kubectl(args);
        out.push(`${result.code} ${result.stdout} ${result.stderr}`);
      }
      return out;
    };
    let recorded: string[];
    {
      await using recording = await createFakeCluster();
      recorded = await run(recording);
      await recording.requests.save(file);
    }
    expect(recorded[1]).toBe('0 fast ');
    await using replaying = await createFakeCluster({ replay: file });
    expect(await run(replaying)).toEqual(recorded);
    expect(replaying.requests.all().every((r) => r.status < 500)).toBe(true);
  });
});
