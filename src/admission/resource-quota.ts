// ResourceQuota admission (apiserver pkg/admission/plugin/resourcequota, v0.36: admission.go and
// controller.go's CheckRequest/checkQuotas), the last validating plugin of the chain. For a
// namespaced write the resource's evaluator handles (apis/quota/evaluators.ts), every quota of the
// namespace that matches the object (names one of its resources and all its scopes) must have a
// usage for each of its resources, the object must state what the quota requires (Constraints),
// and used + requested must stay within hard; then the quotas' status.used is raised before the
// object is stored, as the real plugin does. A request refused by one quota changes none.
// Dry runs are checked but charge nothing. Usage going down (deletes, terminal pods) is the quota
// controller's (controllers/resource-quota-controller.ts).
import type { KubeObject, StoredObject } from '../apis/object.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import { IGNORED_RESOURCES, evaluatorFor, quotaMatches, type QuotaEvaluator } from '../apis/quota/evaluators.ts';
import {
  addLists,
  lessThanOrEqual,
  listsEqual,
  mask,
  negativeNames,
  prettyPrint,
  removeZeros,
  resourceList,
  resourceListJson,
  subtractNonNegative,
  type ResourceList,
} from '../apis/quota/resource-list.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission.ts';
import { admissionForbidden } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const RESOURCE_QUOTAS = storageKeyOf({ group: '', plural: 'resourcequotas' });

const statusList = (quota: KubeObject, which: 'hard' | 'used'): ResourceList =>
  resourceList((quota.status as Record<string, unknown> | undefined)?.[which]);

const sortedNames = (names: Iterable<string>): string => [...names].sort().join(',');

/** CheckRequest: the quotas' new used lists (by quota name) when the request fits, else a refusal. */
function checkRequest(quotas: StoredObject[], attributes: AdmissionAttributes, evaluator: QuotaEvaluator, now: Date): Map<string, ResourceList> {
  const object = attributes.object!;
  const interesting: StoredObject[] = [];
  for (const quota of quotas) {
    if (!quotaMatches(evaluator, quota, object)) continue;
    const hardNames = [...statusList(quota, 'hard').keys()];
    const restricted = evaluator.matchingResources(hardNames);
    const failed = evaluator.constraints(restricted, object);
    if (failed) throw admissionForbidden(attributes, `failed quota: ${quota.metadata.name}: ${failed}`);
    // hasUsageStats: a quota the controller has not yet counted refuses what it covers.
    const used = statusList(quota, 'used');
    if (restricted.some((name) => !used.has(name))) {
      throw admissionForbidden(attributes, `status unknown for quota: ${quota.metadata.name}, resources: ${sortedNames(restricted)}`);
    }
    interesting.push(quota);
  }

  const inputUsage = evaluator.usage(object, now);
  const negative = negativeNames(inputUsage);
  if (negative.length) throw admissionForbidden(attributes, `quota usage is negative for resource(s): ${sortedNames(negative)}`);

  const deltas = new Map<string, ResourceList>(interesting.map((q) => [q.metadata.name, inputUsage]));
  if (attributes.operation === 'UPDATE') {
    const prev = attributes.oldObject;
    if (!prev) throw admissionForbidden(attributes, 'unable to get previous usage since prior version of object was not found');
    if (prev.metadata?.resourceVersion) {
      // Charge the growth only, to the quotas that already covered the old object.
      const delta = subtractNonNegative(inputUsage, evaluator.usage(prev, now));
      for (const quota of interesting) if (quotaMatches(evaluator, quota, prev)) deltas.set(quota.metadata.name, delta);
    }
  }

  const out = new Map<string, ResourceList>();
  for (const quota of interesting) {
    const delta = removeZeros(deltas.get(quota.metadata.name)!);
    if (delta.size === 0) continue;
    const hard = statusList(quota, 'hard');
    const used = statusList(quota, 'used');
    const requested = mask(delta, hard.keys());
    const newUsage = addLists(used, requested);
    if (attributes.subresource !== 'status') {
      const { allowed, exceeded } = lessThanOrEqual(mask(newUsage, requested.keys()), hard);
      if (!allowed) {
        throw admissionForbidden(
          attributes,
          `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
        );
      }
    }
    out.set(quota.metadata.name, newUsage);
  }
  return out;
}

export function resourceQuota(services: AdmissionServices): AdmissionPlugin {
  return {
    name: 'ResourceQuota',
    validate(attributes) {
      const namespace = attributes.namespace;
      if (!namespace) return;
      const { group, plural } = attributes.type;
      if (attributes.operation === 'CREATE' && group === '' && plural === 'namespaces') return;
      if (!group && IGNORED_RESOURCES.has(plural)) return;
      const evaluator = evaluatorFor({ group, resource: plural });
      if (!attributes.object || !evaluator.handles(attributes)) return;
      const quotas = services.store.list(RESOURCE_QUOTAS, `${namespace}/`).map((e) => e.object);
      if (quotas.length === 0) return;
      const newUsed = checkRequest(quotas, attributes, evaluator, services.clock.now());
      if (attributes.dryRun) return;
      // checkQuotas: write each changed status.used before the object is stored. Nothing awaits
      // between the read above and these writes, so no other request's charge is lost.
      const registry = services.registryFor(services.catalog.find('', 'v1', 'resourcequotas')!);
      for (const [name, used] of newUsed) {
        const quota = quotas.find((q) => q.metadata.name === name)!;
        if (listsEqual(used, statusList(quota, 'used'))) continue;
        registry.systemUpdate(namespace, name, (q) => {
          const status = (q.status ??= {}) as Record<string, unknown>;
          status.used = resourceListJson(used);
          return true;
        }, quota.metadata.uid);
      }
    },
  };
}
