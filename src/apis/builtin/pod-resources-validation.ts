// A container's resources as ValidateContainerResourceRequirements checks them
// (pkg/apis/core/validation/validation.go, v1.36, with the resource-name helpers of
// pkg/apis/core/helper/helpers.go): each name a qualified, standard-for-containers or extended
// resource name; each quantity non-negative (whole for extended resources); a request at most its
// limit, equal to it for resources that cannot be overcommitted (extended resources, hugepages),
// whose limit is required; hugepages a multiple of their page size and only beside cpu or memory.
// Go ranges over the maps in random order; here they go in the order the object lists them.
// Pod-level resources (spec.resources; PodLevelResources is beta and on by default in v1.36):
// validatePodResources — no claims, names cpu, memory or hugepages-*, the same quantity rules, then
// validatePodResourceConsistency (a pod request at least the containers' aggregate request of that
// resource, a pod hugepages limit at least theirs, no container limit above the pod's).
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { IS_NEGATIVE_ERROR_MSG, validateQualifiedName } from '../../validation/meta-fields.ts';
import { isPlainObject } from '../object.ts';
import { validateResourceClaimNames } from './pod-claims-validation.ts';
import { isExtendedResourceName, isHugePageResourceName, isNativeResource, isSupportedPodLevelResource } from './resource-names.ts';
import { compareQuantities, Quantity, type Rational } from './quantity.ts';
import { aggregate, type PodSpecJson } from '../quota/pod-resources.ts';
import { resourceList } from '../quota/resource-list.ts';

type Json = Record<string, unknown>;

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
// helper.standardResources: what validateResourceName accepts without a domain.
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);

const isQuotaHugePages = (name: string): boolean => isHugePageResourceName(name) || name.startsWith('requests.hugepages-');
const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !isHugePageResourceName(name);
const isIntegerResource = (name: string): boolean => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);

/** validateResourceName: a qualified name, standard unless it has a domain. */
function validateResourceName(name: string, path: string): FieldError[] {
  const qualified = validateQualifiedName(name, path);
  if (qualified.length) return qualified;
  return !name.includes('/') && !(STANDARD_RESOURCES.has(name) || isQuotaHugePages(name)) ? [fieldError.invalid(path, name, 'must be a standard resource type or fully qualified')] : [];
}

// resourcehelper.SupportedPodLevelResources(), sorted as sets.List prints it.
const POD_LEVEL_RESOURCES = ['cpu', 'hugepages-', 'memory'];

/** validatePodResourceName: a resource name, and one pod-level resources support. */
function validatePodResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (errs.length) return errs;
  if (!isSupportedPodLevelResource(name)) return [fieldError.notSupported(path, name, POD_LEVEL_RESOURCES)];
  return [];
}

/** validateContainerResourceName (over validateResourceName). */
function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePageResourceName(name)) errs.push(fieldError.invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) errs.push(fieldError.invalid(path, name, "doesn't follow extended resource name standard"));
  return errs;
}

/** Quantity.Value()/MilliValue(): rounded up, away from zero. */
function scaledUp(q: Rational, factor: bigint): bigint {
  const n = q.num * factor;
  const whole = n / q.den;
  return n % q.den === 0n ? whole : n > 0n ? whole + 1n : whole - 1n;
}

/** ValidateResourceQuantityValue: non-negative, whole for integer resources. */
function validateQuantityValue(name: string, q: Rational, text: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (q.num < 0n) errs.push(fieldError.invalid(path, text, IS_NEGATIVE_ERROR_MSG));
  if (isIntegerResource(name) && scaledUp(q, 1000n) % 1000n !== 0n) errs.push(fieldError.invalid(path, text, 'must be an integer'));
  return errs;
}

/** validateResourceQuantityHugePageValue: a positive whole multiple of the page size in the name. */
function hugePageValueError(name: string, q: Rational, text: string): string | undefined {
  const pageSize = Quantity.parse(name.slice('hugepages-'.length));
  let divisible = false;
  if (typeof pageSize !== 'string') {
    const size = pageSize.toRational();
    if (size.num > 0n && scaledUp(size, 1000n) % 1000n === 0n) divisible = scaledUp(q, 1n) % scaledUp(size, 1n) === 0n;
  }
  return divisible ? undefined : `${text} is not positive integer multiple of ${name}`;
}

interface Parsed {
  name: string;
  q: Rational;
  text: string;
}

function entries(list: unknown): Parsed[] {
  if (!isPlainObject(list)) return [];
  const out: Parsed[] = [];
  for (const [name, value] of Object.entries(list)) {
    const q = Quantity.parse(String(value));
    // The decoder refuses what is no quantity before validation runs.
    if (typeof q !== 'string') out.push({ name, q: q.toRational(), text: q.toString() });
  }
  return out;
}

/** ValidateContainerResourceRequirements; `path` is `…containers[i].resources`. */
export function validateContainerResources(resources: unknown, podClaims: Set<string>, path: string): FieldError[] {
  return validateResourceRequirements(resources, validateContainerResourceName, podClaims, path);
}

/** validatePodResources: `spec.resources`, when set. */
export function validatePodLevelResources(spec: Json, podClaims: Set<string>, path: string): FieldError[] {
  const r = spec.resources;
  if (!isPlainObject(r)) return [];
  const errs: FieldError[] = [];
  if (r.claims !== undefined && r.claims !== null) errs.push(fieldError.forbidden(`${path}.claims`, 'claims cannot be set for Resources at pod-level'));
  errs.push(...validateResourceRequirements(r, validatePodResourceName, podClaims, path));
  errs.push(...validatePodResourceConsistency(spec, path));
  return errs;
}

/** validatePodResourceConsistency, over the v1 spec (AggregateContainerRequests). */
function validatePodResourceConsistency(spec: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = spec.resources as Json;
  const podRequests = resourceList(r.requests);
  // Only the resources the pod requests itself are compared.
  for (const [name, containerRequests] of aggregate(spec as PodSpecJson, 'requests')) {
    const podRequest = podRequests.get(name);
    if (podRequest && containerRequests.cmp(podRequest) > 0) {
      errs.push(fieldError.invalid(`${path}.requests[${name}]`, podRequest.toString(), `must be greater than or equal to aggregate container requests of ${containerRequests.toString()}`));
    }
  }
  const podLimits = resourceList(r.limits);
  // A pod-level hugepages limit covers the containers' (hugepages cannot be overcommitted).
  for (const [name, containerLimits] of aggregate(spec as PodSpecJson, 'limits')) {
    const podLimit = podLimits.get(name);
    if (isHugePageResourceName(name) && podLimit && containerLimits.cmp(podLimit) > 0) {
      errs.push(fieldError.invalid(`${path}.limits[${name}]`, podLimit.toString(), `must be greater than or equal to aggregate container limits of ${containerLimits.toString()}`));
    }
  }
  (Array.isArray(spec.containers) ? spec.containers.filter(isPlainObject) : []).forEach((c, i) => {
    for (const [name, limit] of resourceList(isPlainObject(c.resources) ? c.resources.limits : undefined)) {
      const podLimit = podLimits.get(name);
      if (podLimit && limit.cmp(podLimit) > 0) {
        errs.push(fieldError.invalid(`${path}.containers[${i}][${name}].limits`, limit.toString(), `must be less than or equal to pod limits of ${podLimit.toString()}`));
      }
    }
  });
  return errs;
}

/** validateResourceRequirements with the resource-name rule of containers or of the pod. */
function validateResourceRequirements(resources: unknown, resourceName: (name: string, path: string) => FieldError[], podClaims: Set<string>, path: string): FieldError[] {
  const r: Json = isPlainObject(resources) ? resources : {};
  const errs: FieldError[] = [];
  const limits = entries(r.limits);
  const requests = entries(r.requests);
  let cpuOrMemory = false;
  let hugePages = false;
  for (const { name, q, text } of limits) {
    const keyPath = `${path}.limits[${name}]`;
    errs.push(...resourceName(name, keyPath), ...validateQuantityValue(name, q, text, keyPath));
    if (isHugePageResourceName(name)) {
      hugePages = true;
      const err = hugePageValueError(name, q, text);
      if (err) errs.push(fieldError.invalid(keyPath, text, err));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const { name, q, text } of requests) {
    const keyPath = `${path}.requests[${name}]`;
    errs.push(...resourceName(name, keyPath), ...validateQuantityValue(name, q, text, keyPath));
    const limit = limits.find((l) => l.name === name);
    if (limit) {
      const cmp = compareQuantities(q, limit.q);
      if (cmp !== 0 && !isOvercommitAllowed(name)) errs.push(fieldError.invalid(`${path}.requests`, text, `must be equal to ${name} limit of ${limit.text}`));
      else if (cmp > 0) errs.push(fieldError.invalid(`${path}.requests`, text, `must be less than or equal to ${name} limit of ${limit.text}`));
    } else if (!isOvercommitAllowed(name)) errs.push(fieldError.required(`${path}.limits`, 'Limit must be set for non overcommitable resources'));
    if (isHugePageResourceName(name)) {
      hugePages = true;
      const err = hugePageValueError(name, q, text);
      if (err) errs.push(fieldError.invalid(keyPath, text, err));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(fieldError.forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...validateResourceClaimNames(r.claims, podClaims, `${path}.claims`));
  return errs;
}
