// Plain helpers the workload controllers share: reading typed fields off stored objects, pod
// readiness and availability as kube-controller-manager computes them (pkg/api/v1/pod/util.go,
// pkg/controller/controller_utils.go), conditions, and metav1.LabelSelector matching.
import type { KubeObject, OwnerReference, StoredObject } from '../../apis/object.ts';
import { formatTimestamp } from '../../go/time.ts';
import { tryLabelSelectorAsSelector } from '../../selectors/label-selector-as-selector.ts';
import type { LabelSelector } from '../../selectors/label-selector.ts';

export type Json = Record<string, unknown>;

export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
  observedGeneration?: number;
}

export const specOf = (obj: KubeObject): Json => (obj.spec ?? {}) as Json;
export const statusOf = (obj: KubeObject): Json => (obj.status ?? {}) as Json;
export const labelsOf = (obj: KubeObject): Record<string, string> => obj.metadata?.labels ?? {};
export const conditionsOf = (obj: KubeObject): Condition[] => (statusOf(obj).conditions as Condition[] | undefined) ?? [];
export const findCondition = (obj: KubeObject, type: string): Condition | undefined => conditionsOf(obj).find((c) => c.type === type);

/** The owner reference with controller: true, if any. */
export function controllerRefOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** metav1.NewControllerRef. */
export function newControllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return { apiVersion, kind, name: owner.metadata!.name!, uid: owner.metadata!.uid!, controller: true, blockOwnerDeletion: true };
}

/** metav1.LabelSelectorAsSelector; an unparsable selector selects nothing (validation refuses those). */
export function selectorOf(selector: unknown): LabelSelector | undefined {
  if (selector === undefined || selector === null) return undefined;
  return tryLabelSelectorAsSelector(selector);
}

/** labels.SelectorFromSet for a map selector (Service, ReplicationController); undefined for a missing or empty map. */
export function selectorOfSet(labels: unknown): LabelSelector | undefined {
  if (!labels || typeof labels !== 'object' || Object.keys(labels).length === 0) return undefined;
  return selectorOf({ matchLabels: labels });
}

export const isTerminal = (pod: KubeObject): boolean => statusOf(pod).phase === 'Succeeded' || statusOf(pod).phase === 'Failed';

/** controller.IsPodActive: not terminal and not being deleted. */
export const isPodActive = (pod: KubeObject): boolean => !isTerminal(pod) && !pod.metadata?.deletionTimestamp;

/** podutil.IsPodReady. */
export const isPodReady = (pod: KubeObject): boolean => findCondition(pod, 'Ready')?.status === 'True';

/** podutil.IsPodAvailable: ready for at least minReadySeconds by the Ready condition's transition time. */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, now: Date): boolean {
  const ready = findCondition(pod, 'Ready');
  if (ready?.status !== 'True') return false;
  if (minReadySeconds === 0) return true;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : NaN;
  return Number.isFinite(since) && since + minReadySeconds * 1000 <= now.getTime();
}

/** When a ready pod becomes available (its Ready transition plus minReadySeconds), in epoch ms. */
export function availableAt(pod: KubeObject, minReadySeconds: number): number | undefined {
  const ready = findCondition(pod, 'Ready');
  if (ready?.status !== 'True' || !ready.lastTransitionTime) return undefined;
  return Date.parse(ready.lastTransitionTime) + minReadySeconds * 1000;
}

/**
 * Sets a condition the way the controllers' SetCondition helpers do: the transition time moves
 * only when the status changes; reason and message are replaced. Answers whether anything changed.
 */
export function setCondition(conditions: Condition[], next: Condition, now: Date, withUpdateTime = false): boolean {
  const at = formatTimestamp(now);
  const existing = conditions.find((c) => c.type === next.type);
  if (!existing) {
    conditions.push({ ...next, ...(withUpdateTime ? { lastUpdateTime: at } : {}), lastTransitionTime: at });
    return true;
  }
  if (existing.status === next.status && existing.reason === next.reason && existing.message === next.message) return false;
  const transition = existing.status !== next.status ? at : existing.lastTransitionTime;
  const replaced: Condition = { ...next, ...(withUpdateTime ? { lastUpdateTime: at } : {}), lastTransitionTime: transition };
  conditions[conditions.indexOf(existing)] = replaced;
  return true;
}

export const numberOr = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** intstr.GetScaledValueFromIntOrPercent: an integer as is, a percent of total rounded up or down. */
export function scaledIntOrPercent(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.endsWith('%')) {
    const v = (Number(value.slice(0, -1)) * total) / 100;
    return roundUp ? Math.ceil(v) : Math.floor(v);
  }
  return Number(value) || 0;
}

/** A stored object's copy to edit. */
export const copyOf = <T extends StoredObject | KubeObject>(obj: T): KubeObject => structuredClone(obj) as KubeObject;

/**
 * A template-hash as the controllers compute it (controller.ComputeHash: FNV-32a over the
 * template's printed form, then rendered safe). The printed form here is its JSON with sorted keys,
 * so the same template always gives the same hash; the value differs from Go's.
 */
export function computeHash(template: unknown, collisionCount?: number): string {
  let h = 0x811c9dc5;
  const text = stableJson(template) + (collisionCount ? String(collisionCount) : '');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return safeEncodeString(String(h));
}

/** rand.SafeEncodeString: digits and vowels mapped to consonants and digits that cannot spell words. */
function safeEncodeString(s: string): string {
  const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
  let out = '';
  for (let i = 0; i < s.length; i++) out += alphanums[s.charCodeAt(i) % alphanums.length];
  return out;
}

export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Json;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
