// The refusal a client can only meet in the instant between a quota's creation and the quota
// controller's first count (too short to reach deterministically over the wire): the plugin
// alone, on a store holding a quota whose status has no usage yet.
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../apis/resource-type.ts';
import type { ApiCatalog } from '../apis/catalog.ts';
import type { AdmissionAttributes } from '../registry/admission.ts';
import { VersionedStore } from '../storage/versioned-store.ts';
import { cryptoRandom, systemClock } from '../util/clock-and-random.ts';
import { resourceQuota } from './resource-quota.ts';

const podsType = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true } as ResourceType;
const attributes = (): AdmissionAttributes => ({
  operation: 'CREATE',
  type: podsType,
  subresource: '',
  namespace: 'ns',
  name: 'p',
  object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  oldObject: undefined,
  options: {},
  dryRun: false,
  userInfo: undefined,
  warnings: [],
  auditAnnotations: {},
});

describe('ResourceQuota admission before the controller has counted', () => {
  it('refuses what an uncounted quota covers, naming its resources', async () => {
    const store = new VersionedStore({ historyLimit: 100 });
    store.create('/resourcequotas', 'ns/fresh', {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'fresh', namespace: 'ns' },
      spec: { hard: { pods: '5', 'requests.cpu': '1', secrets: '1' } },
      status: { hard: { pods: '5', 'requests.cpu': '1', secrets: '1' } },
    });
    const plugin = resourceQuota({ store, catalog: {} as ApiCatalog, clock: systemClock, random: cryptoRandom, registryFor: () => { throw new Error('no write expected'); } });
    const attrs = attributes();
    // A pod without cpu fails the constraint first, as CheckRequest checks Constraints before usage stats.
    await expect(async () => plugin.validate!(attrs)).rejects.toMatchObject({ code: 403, message: 'pods "p" is forbidden: failed quota: fresh: must specify requests.cpu for: c' });
    (attrs.object!.spec as { containers: { resources?: object }[] }).containers[0]!.resources = { requests: { cpu: '100m' } };
    await expect(async () => plugin.validate!(attrs)).rejects.toMatchObject({ code: 403, message: 'pods "p" is forbidden: status unknown for quota: fresh, resources: pods,requests.cpu' });
  });
});
