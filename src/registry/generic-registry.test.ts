import { describe, expect, it } from 'vitest';
import { builtinResourceTypes } from '../apis/builtin/index.ts';
import { StatusError } from '../errors/status-error.ts';
import { VersionedStore } from '../storage/versioned-store.ts';
import { systemClock, type RandomSource } from './context.ts';
import { GenericRegistry } from './generic-registry.ts';

function registries(random: RandomSource) {
  const ctx = { store: new VersionedStore({ historyLimit: 100 }), clock: systemClock, random };
  const types = builtinResourceTypes();
  const of = (plural: string) => new GenericRegistry(types.find((t) => t.group === '' && t.plural === plural)!, ctx);
  return { namespaces: of('namespaces'), configmaps: of('configmaps') };
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
