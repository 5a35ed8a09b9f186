import { expect, test } from 'vitest';
import { createFakeCluster } from 'kubefake';

test('deterministic mode: a frozen clock and seeded identifiers', async () => {
  await using cluster = await createFakeCluster({ deterministic: true }); // or { clock: '2030-01-01T00:00:00Z', seed: 42 }
  expect(cluster.clock.now().toISOString()).toBe('2025-01-01T00:00:00.000Z'); // frozen
  cluster.clock.advance(60_000); // creation/deletion timestamps, conditions and Table ages follow
  const [cm] = await cluster.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'web-', namespace: 'default' } });
  expect(cm!.metadata!.creationTimestamp).toBe('2025-01-01T00:01:00Z');
  const again = await createFakeCluster({ deterministic: true });
  again.clock.advance(60_000);
  const [same] = await again.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'web-', namespace: 'default' } });
  await again.close();
  expect([same!.metadata!.name, same!.metadata!.uid]).toEqual([cm!.metadata!.name, cm!.metadata!.uid]);
});
