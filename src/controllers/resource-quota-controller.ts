// The resource quota controller (kubernetes pkg/controller/resourcequota, v1.36): keeps every
// ResourceQuota's status.hard equal to spec.hard and status.used equal to what the namespace's
// objects charge (CalculateUsage over the evaluators of apis/quota/evaluators.ts, each object
// counted when it matches all the quota's scopes). Admission raises status.used as objects are
// created; this brings it back down when they go (the real controller's replenishment), and
// recounts when a quota is created or its spec changes. Here every write to a namespace that has
// quotas requeues them, where the real one also resyncs every five minutes.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { storageKeyOf, type ResourceType } from '../apis/resource-type.ts';
import { evaluatorFor, objectCountEvaluator, quotaScopeSelectors, type QuotaEvaluator } from '../apis/quota/evaluators.ts';
import { addLists, listsEqual, mask, resourceList, resourceListJson, zeroQuantity, type ResourceList } from '../apis/quota/resource-list.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { QueueController } from './queue-controller.ts';

const RESOURCE_QUOTAS = storageKeyOf({ group: '', plural: 'resourcequotas' });

/** The kinds with their own evaluator or a legacy alias, always registered. */
const CORE_RESOURCES = ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'resourcequotas', 'replicationcontrollers', 'secrets'];

export class ResourceQuotaController extends QueueController {
  readonly name = 'resource-quota-controller';

  protected observe(event: StoreEvent): void {
    if (event.bucket === RESOURCE_QUOTAS) {
      // The controller's own status writes come back here and find nothing to do.
      if (event.type !== 'DELETED') this.queue.add(event.key);
      return;
    }
    const namespace = event.object.metadata.namespace;
    if (!namespace) return;
    for (const { key } of this.ctx.store.list(RESOURCE_QUOTAS, `${namespace}/`)) this.queue.add(key);
  }

  /** syncResourceQuota. */
  protected sync(key: string): void {
    const quota = this.ctx.store.get(RESOURCE_QUOTAS, key);
    if (!quota) return;
    const namespace = quota.metadata.namespace!;
    const status = (quota.status ?? {}) as { hard?: unknown; used?: unknown };
    const hard = resourceList((quota.spec as { hard?: unknown } | undefined)?.hard);
    const oldHard = resourceList(status.hard);
    const oldUsed = resourceList(status.used);
    let used: ResourceList = addLists(new Map(), oldUsed);
    for (const [name, q] of this.calculateUsage(namespace, quota, [...hard.keys()])) used.set(name, q);
    used = mask(used, hard.keys());
    const dirty = status.hard === undefined || status.used === undefined || !listsEqual(hard, oldHard) || !listsEqual(used, oldUsed);
    if (!dirty) return;
    this.ctx.registryFor(this.quotaType()).systemUpdate(namespace, quota.metadata.name, (q) => {
      q.status = { ...((q.status ?? {}) as object), hard: resourceListJson(hard), used: resourceListJson(used) };
      return true;
    }, quota.metadata.uid);
  }

  /** quota.CalculateUsage: every evaluator that tracks one of the hard names sums its objects. */
  private calculateUsage(namespace: string, quota: StoredObject, hardNames: string[]): ResourceList {
    const selectors = quotaScopeSelectors(quota);
    const now = this.ctx.clock.now();
    let usage: ResourceList = new Map();
    const matched = new Set<string>();
    for (const { evaluator, type } of this.evaluators(hardNames)) {
      const names = evaluator.matchingResources(hardNames);
      if (names.length === 0) continue;
      names.forEach((n) => matched.add(n));
      // CalculateUsageStats: every tracked name starts at zero.
      let used: ResourceList = new Map(names.map((n) => [n, zeroQuantity()]));
      for (const { object } of this.ctx.store.list(storageKeyOf(type), `${namespace}/`)) {
        const obj = object as KubeObject;
        if (!selectors.every((s) => evaluator.matchesScope(s, obj))) continue;
        used = addLists(used, evaluator.usage(obj, now));
      }
      usage = addLists(usage, used);
    }
    return mask(usage, matched);
  }

  /** The registry's evaluators that can matter here: the core ones and an object count per `count/` name served. */
  private evaluators(hardNames: string[]): Array<{ evaluator: QuotaEvaluator; type: ResourceType }> {
    const out: Array<{ evaluator: QuotaEvaluator; type: ResourceType }> = [];
    const seen = new Set<string>();
    const add = (type: ResourceType | undefined, evaluator: QuotaEvaluator) => {
      if (!type || !type.namespaced || seen.has(storageKeyOf(type))) return;
      seen.add(storageKeyOf(type));
      out.push({ evaluator, type });
    };
    for (const plural of CORE_RESOURCES) add(this.ctx.catalog.find('', 'v1', plural), evaluatorFor({ group: '', resource: plural }));
    for (const name of hardNames) {
      if (!name.startsWith('count/')) continue;
      const target = name.slice('count/'.length);
      const dot = target.indexOf('.');
      const [resource, group] = dot < 0 ? [target, ''] : [target.slice(0, dot), target.slice(dot + 1)];
      const type = this.ctx.catalog.all().find((t) => t.group === group && t.plural === resource && !t.subresource);
      add(type, objectCountEvaluator({ group, resource }));
    }
    return out;
  }

  private quotaType(): ResourceType {
    return this.ctx.catalog.find('', 'v1', 'resourcequotas')!;
  }
}
