// LimitRanger (plugin/pkg/admission/limitranger/admission.go, v1.36). Mutating: a pod created in a
// namespace with LimitRanges gets each Container-type item's default requests and limits on every
// container and init container that lacks them, and the `kubernetes.io/limit-ranger` annotation
// saying what was set. Validating: the Container and Pod items' min, max and
// maxLimitRequestRatio on a created pod, the PersistentVolumeClaim items' min and max on a
// created or updated claim's storage request; a refusal is a 403 naming every broken rule.
// Pod updates are not checked (containers' resources are immutable there), nor anything whose
// stored object is being deleted.
import type { KubeObject } from '../apis/object.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import type { Quantity } from '../apis/builtin/quantity.ts';
import { podLimitsWithoutOverhead, podRequestsWithoutOverhead } from '../apis/quota/pod-resources.ts';
import { MAX_MILLI_VALUE, deepCopyQuantity, milliValue, resourceList, value, type ResourceList } from '../apis/quota/resource-list.ts';
import { aggregateMessages } from '../errors/field-error.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission.ts';
import { admissionForbidden, isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const ANNOTATION = 'kubernetes.io/limit-ranger';

interface LimitRangeItem {
  type?: string;
  min?: unknown;
  max?: unknown;
  default?: unknown;
  defaultRequest?: unknown;
  maxLimitRequestRatio?: unknown;
}

interface ContainerJson {
  name?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

const items = (lr: KubeObject): LimitRangeItem[] => ((lr.spec as { limits?: LimitRangeItem[] } | undefined)?.limits ?? []);

/** requestLimitEnforcedValues: the three at a common precision (milli unless that overflows). */
function enforcedValues(request: Quantity | undefined, limit: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const [r, l, e] = [request ? value(request) : 0n, limit ? value(limit) : 0n, value(enforced)];
  if (r <= MAX_MILLI_VALUE && l <= MAX_MILLI_VALUE && e <= MAX_MILLI_VALUE) {
    return [request ? milliValue(request) : 0n, limit ? milliValue(limit) : 0n, milliValue(enforced)];
  }
  return [r, l, e];
}

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const [req, lim] = [requests.get(name), limits.get(name)];
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!req) return `minimum ${name} usage per ${type} is ${enforced.toString()}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${type} is ${enforced.toString()}, but request is ${req.toString()}`;
  if (lim && l < e) return `minimum ${name} usage per ${type} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  return undefined;
}

/** maxRequestConstraint: for claims, whose limits are not user input. */
function maxRequestConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const req = requests.get(name);
  const [r, , e] = enforcedValues(req, undefined, enforced);
  if (!req) return `maximum ${name} usage per ${type} is ${enforced.toString()}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${type} is ${enforced.toString()}, but request is ${req.toString()}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const [req, lim] = [requests.get(name), limits.get(name)];
  const [r, l, e] = enforcedValues(req, lim, enforced);
  if (!lim) return `maximum ${name} usage per ${type} is ${enforced.toString()}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${type} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  if (req && r > e) return `maximum ${name} usage per ${type} is ${enforced.toString()}, but request is ${req.toString()}`;
  return undefined;
}

function limitRequestRatioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const [req, lim] = [requests.get(name), limits.get(name)];
  const [r, l] = enforcedValues(req, lim, enforced);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${type} is ${enforced.toString()}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${type} is ${enforced.toString()}, but no limit is specified or limit is 0`;
  let observed = Number(l) / Number(r);
  const display = observed;
  let max = Number(value(enforced));
  if (value(enforced) <= MAX_MILLI_VALUE) {
    observed *= 1000;
    max = Number(milliValue(enforced));
  }
  // %f: six decimals.
  if (observed > max) return `${name} max limit to request ratio per ${type} is ${enforced.toString()}, but provided ratio is ${display.toFixed(6)}`;
  return undefined;
}

/** min, max and ratio of one item against one set of requests and limits. */
function checkItem(item: LimitRangeItem, requests: ResourceList, limits: ResourceList, errors: string[]): void {
  const type = item.type ?? '';
  for (const [name, q] of resourceList(item.min)) pushIf(errors, minConstraint(type, name, q, requests, limits));
  for (const [name, q] of resourceList(item.max)) pushIf(errors, maxConstraint(type, name, q, requests, limits));
  for (const [name, q] of resourceList(item.maxLimitRequestRatio)) pushIf(errors, limitRequestRatioConstraint(type, name, q, requests, limits));
}

const pushIf = (errors: string[], e: string | undefined) => void (e && errors.push(e));

/** mergeContainerResources: the defaults a container lacks, and the annotation's phrases. */
function mergeContainer(container: ContainerJson, defaults: { requests: ResourceList; limits: ResourceList }, prefix: string, annotations: string[]): void {
  const resources = (container.resources ??= {});
  const set = (which: 'requests' | 'limits', from: ResourceList): string[] => {
    const added: string[] = [];
    for (const [name, q] of from) {
      const current = resources[which] ?? {};
      if (Object.hasOwn(current, name)) continue;
      resources[which] = { ...current, [name]: deepCopyQuantity(q).toString() };
      added.push(name);
    }
    return added.sort();
  };
  const limitsSet = set('limits', defaults.limits);
  const requestsSet = set('requests', defaults.requests);
  if (requestsSet.length) annotations.push(`${requestsSet.join(', ')} request for ${prefix} ${container.name ?? ''}`);
  if (limitsSet.length) annotations.push(`${limitsSet.join(', ')} limit for ${prefix} ${container.name ?? ''}`);
}

/** PodMutateLimitFunc. */
function mutatePod(lr: KubeObject, pod: KubeObject): void {
  const defaults = { requests: new Map() as ResourceList, limits: new Map() as ResourceList };
  for (const item of items(lr)) {
    if (item.type !== 'Container') continue;
    for (const [k, v] of resourceList(item.defaultRequest)) defaults.requests.set(k, v);
    for (const [k, v] of resourceList(item.default)) defaults.limits.set(k, v);
  }
  const spec = (pod.spec ?? {}) as { containers?: ContainerJson[]; initContainers?: ContainerJson[] };
  const annotations: string[] = [];
  for (const c of spec.containers ?? []) mergeContainer(c, defaults, 'container', annotations);
  for (const c of spec.initContainers ?? []) mergeContainer(c, defaults, 'init container', annotations);
  if (annotations.length) {
    const meta = pod.metadata ?? (pod.metadata = {});
    meta.annotations = { ...meta.annotations, [ANNOTATION]: `LimitRanger plugin set: ${annotations.join('; ')}` };
  }
}

/** PodValidateLimitFunc. */
function validatePod(lr: KubeObject, pod: KubeObject): string[] {
  const errors: string[] = [];
  const spec = (pod.spec ?? {}) as { containers?: ContainerJson[]; initContainers?: ContainerJson[] };
  for (const item of items(lr)) {
    if (item.type === 'Container') {
      for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
        checkItem(item, resourceList(c.resources?.requests), resourceList(c.resources?.limits), errors);
      }
    }
    if (item.type === 'Pod') checkItem(item, podRequestsWithoutOverhead(pod), podLimitsWithoutOverhead(pod), errors);
  }
  return errors;
}

/** PersistentVolumeClaimValidateLimitFunc: only the storage request, min and max. */
function validateClaim(lr: KubeObject, pvc: KubeObject): string[] {
  const errors: string[] = [];
  const requests = resourceList((pvc.spec as { resources?: { requests?: unknown } } | undefined)?.resources?.requests);
  for (const item of items(lr)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    const type = item.type;
    for (const [name, q] of resourceList(item.min)) pushIf(errors, minConstraint(type, name, q, requests, new Map()));
    for (const [name, q] of resourceList(item.max)) pushIf(errors, maxRequestConstraint(type, name, q, requests));
  }
  return errors;
}

export function limitRanger(services: AdmissionServices): AdmissionPlugin {
  const LIMIT_RANGES = storageKeyOf({ group: '', plural: 'limitranges' });

  /** SupportsAttributes plus the deletion check of runLimitFunc; the namespace's LimitRanges when it applies. */
  const limitRangesFor = (attributes: AdmissionAttributes): KubeObject[] => {
    if (attributes.subresource !== '' || !attributes.object || !attributes.namespace) return [];
    const isPod = isResource(attributes, '', 'pods');
    if (!isPod && !isResource(attributes, '', 'persistentvolumeclaims')) return [];
    if (isPod && attributes.operation === 'UPDATE') return [];
    if (attributes.oldObject?.metadata?.deletionTimestamp) return [];
    return services.store.list(LIMIT_RANGES, `${attributes.namespace}/`).map((e) => e.object);
  };

  return {
    name: 'LimitRanger',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    admit(attributes) {
      if (!isResource(attributes, '', 'pods')) return;
      for (const lr of limitRangesFor(attributes)) mutatePod(lr, attributes.object!);
    },
    validate(attributes) {
      const isPod = isResource(attributes, '', 'pods');
      // Each LimitRange in turn; the first that fails refuses the request with all its errors.
      for (const lr of limitRangesFor(attributes)) {
        const errors = isPod ? validatePod(lr, attributes.object!) : validateClaim(lr, attributes.object!);
        if (errors.length) throw admissionForbidden(attributes, aggregateMessages(errors));
      }
    },
  };
}
