import { describe } from 'vitest';
import { expect, test } from 'kubefake/vitest';

test('a fresh cluster for this test, closed after it', async ({ cluster }) => {
  await cluster.apply('examples/crontab'); // files and directories too (relative to the working directory)
  await cluster.apply({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'a' }, spec: { image: 'x' } });
  expect({ kind: 'CronTab', name: 'a' }).toExistInCluster(cluster);
  expect(cluster.get({ kind: 'CustomResourceDefinition', name: 'crontabs.stable.example.com' })).toHaveCondition('Established'); // status "True" unless told otherwise
  expect(cluster.snapshot({ kinds: ['CronTab'] }).map((o) => o.metadata?.name)).toEqual(['a', 'my-new-cron-object']);
});

describe('deterministic', () => {
  test.override({ clusterOptions: { deterministic: true, manifests: 'examples/crontab/crontab-crd.yaml' } });
  test('every test here gets a cluster made with these options', async ({ cluster }) => {
    expect(cluster.clock.now().toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(cluster.list('CronTab')).toEqual([]);
  });
});
