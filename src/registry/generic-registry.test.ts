import { describe, expect, it } from 'vitest';
import { builtinResourceTypes } from '../apis/builtin/index.ts';
import { StatusError } from '../errors/status-error.ts';
import { VersionedStore } from '../storage/versioned-store.ts';
import { systemClock, type RandomSource } from '../util/clock-and-random.ts';
import { GenericRegistry } from './generic-registry.ts';

function registries(random: RandomSource) {
  const ctx = { store: new VersionedStore({ historyLimit: 100 }), clock: systemClock, random };
  const types = builtinResourceTypes();
  const of = (plural: string) => new GenericRegistry(types.find((t) => t.group === '' && t.plural === plural)!, ctx);
  return { namespaces: of('namespaces'), configmaps: of('configmaps'), pods: of('pods') };
}

describe('generateName', () => {
  it('retries collisions and gives up after 8 attempts with the real 409', async () => {
    let picks = 0;
    // Always the same suffix: every generated name after the first collides.
    const sameSuffix: RandomSource = { uid: () => crypto.randomUUID(), pick: (alphabet) => (picks++, alphabet[0]!) };
    const { namespaces, configmaps } = registries(sameSuffix);
    await namespaces.create(undefined, { metadata: { name: 'default' } });
    const first = await configmaps.create('default', { metadata: { generateName: 'g-' } });
    expect(first.object.metadata?.name).toBe('g-bbbbb');
    picks = 0;
    const err = await configmaps.create('default', { metadata: { generateName: 'g-' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "g-bbbbb" already exists, the server was not able to generate a unique name for the object',
      reason: 'AlreadyExists',
      details: { name: 'g-bbbbb', kind: 'configmaps', retryAfterSeconds: 1 },
      code: 409,
    });
    expect(picks).toBe(8 * 5);
  });

  it('cuts the prefix to 58 characters before adding the suffix', async () => {
    const { namespaces, configmaps } = registries({ uid: () => crypto.randomUUID(), pick: (a) => a[1]! });
    await namespaces.create(undefined, { metadata: { name: 'default' } });
    const created = await configmaps.create('default', { metadata: { generateName: 'x'.repeat(70) } });
    expect(created.object.metadata?.name).toBe('x'.repeat(58) + 'ccccc');
  });
});

describe('graceful pod deletion (podStrategy.CheckGracefulDelete)', () => {
  const pod = (name: string) => ({ metadata: { name }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'i' }] } });

  it('deletes a finished pod at once even when it is bound to a node', async () => {
    const { namespaces, pods } = registries({ uid: () => crypto.randomUUID(), pick: (a) => a[0]! });
    await namespaces.create(undefined, { metadata: { name: 'default' } });
    await pods.create('default', pod('done'));
    // Only the kubelet writes status; the registry's system write stands in for it here.
    pods.systemUpdate('default', 'done', (o) => ((o.status as Record<string, unknown>).phase = 'Succeeded', true));
    const result = await pods.delete('default', 'done', {});
    expect(result.pending).toBe(false);
    expect(pods.peek('default', 'done')).toBeUndefined();
  });

  it('keeps a running pod for its grace period, and only shortens it on a second delete', async () => {
    const { namespaces, pods } = registries({ uid: () => crypto.randomUUID(), pick: (a) => a[0]! });
    await namespaces.create(undefined, { metadata: { name: 'default' } });
    await pods.create('default', pod('running'));
    const first = await pods.delete('default', 'running', { gracePeriodSeconds: 20 });
    expect(first.pending).toBe(true);
    expect(pods.peek('default', 'running')?.metadata.deletionGracePeriodSeconds).toBe(20);
    const longer = await pods.delete('default', 'running', { gracePeriodSeconds: 60 });
    expect((longer.body as { metadata: { deletionGracePeriodSeconds: number } }).metadata.deletionGracePeriodSeconds).toBe(20);
    await pods.delete('default', 'running', { gracePeriodSeconds: 5 });
    expect(pods.peek('default', 'running')?.metadata.deletionGracePeriodSeconds).toBe(5);
    await pods.delete('default', 'running', { gracePeriodSeconds: 0 });
    expect(pods.peek('default', 'running')).toBeUndefined();
  });
});

describe('finishWrite (the store FinishFunc of BeginCreate/BeginUpdate)', () => {
  // ConfigMaps whose strategy records each finishWrite call, with the object's name; a data key
  // `throw` makes the prepare throw, as a Service create does when its range is full.
  function recordingConfigMaps() {
    const ctx = { store: new VersionedStore({ historyLimit: 100 }), clock: systemClock, random: { uid: () => crypto.randomUUID(), pick: (a: string) => a[0]! } };
    const types = builtinResourceTypes();
    const calls: [string, boolean][] = [];
    const base = types.find((t) => t.group === '' && t.plural === 'configmaps')!;
    const strategy = {
      ...base.strategy,
      prepareForCreate(obj: Parameters<NonNullable<typeof base.strategy.prepareForCreate>>[0]) {
        if ((obj.data as Record<string, string> | undefined)?.throw !== undefined) throw new Error('range is full');
      },
      finishWrite: (obj: { metadata?: { name?: string } }, committed: boolean) => void calls.push([obj.metadata?.name ?? '', committed]),
    };
    const namespaces = new GenericRegistry(types.find((t) => t.group === '' && t.plural === 'namespaces')!, ctx);
    return { namespaces, configmaps: new GenericRegistry({ ...base, strategy }, ctx), calls };
  }

  it('is told true once a create or update is committed or a dry run answered, false for any refusal', async () => {
    const { namespaces, configmaps, calls } = recordingConfigMaps();
    await namespaces.create(undefined, { metadata: { name: 'default' } });
    const created = await configmaps.create('default', { metadata: { name: 'a' } });
    await configmaps.create('default', { metadata: { name: 'dry' } }, { dryRun: ['All'] });
    expect(configmaps.peek('default', 'dry')).toBeUndefined();
    await configmaps.create('default', { metadata: { name: 'a' } }).catch(() => undefined); // AlreadyExists
    await configmaps.create('default', { metadata: { name: 'Bad_Name' } }).catch(() => undefined); // Invalid
    await configmaps.create('default', { metadata: { name: 'thrown' }, data: { throw: '' } }).catch(() => undefined);
    await configmaps.create('missing-ns', { metadata: { name: 'no-ns' } }).catch(() => undefined); // NotFound namespace
    await configmaps.update('default', 'a', { metadata: { name: 'a', resourceVersion: created.object.metadata!.resourceVersion }, data: { k: 'v' } });
    await configmaps.update('default', 'a', { metadata: { name: 'a', resourceVersion: created.object.metadata!.resourceVersion } }).catch(() => undefined); // Conflict: before the prepare
    expect(calls).toEqual([
      ['a', true],
      ['dry', true],
      ['a', false],
      ['Bad_Name', false],
      ['thrown', false],
      ['no-ns', false],
      ['a', true],
    ]);
  });
});
