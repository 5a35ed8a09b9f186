// CustomResourceDefinition status conditions as apiextensions helpers.SetCRDCondition keeps them:
// one per type, appended in first-set order, lastTransitionTime moved only when the status flips.
import type { KubeObject } from '../apis/object.ts';

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export function crdConditions(crd: KubeObject): CrdCondition[] {
  const conditions = (crd.status as { conditions?: unknown } | undefined)?.conditions;
  return Array.isArray(conditions) ? (conditions as CrdCondition[]) : [];
}

export function findCrdCondition(crd: KubeObject, type: string): CrdCondition | undefined {
  return crdConditions(crd).find((c) => c.type === type);
}

export const isCrdConditionTrue = (crd: KubeObject, type: string): boolean => findCrdCondition(crd, type)?.status === 'True';

/** Sets (or replaces) a condition; answers whether anything changed. */
export function setCrdCondition(crd: KubeObject, next: Omit<CrdCondition, 'lastTransitionTime'>, now: string): boolean {
  const status = (crd.status ??= {}) as { conditions?: CrdCondition[] | null };
  const conditions = Array.isArray(status.conditions) ? status.conditions : (status.conditions = []);
  const existing = conditions.find((c) => c.type === next.type);
  // Field order as Go serialises CustomResourceDefinitionCondition.
  const make = (time: string): CrdCondition => ({ type: next.type, status: next.status, lastTransitionTime: time, reason: next.reason, message: next.message });
  if (!existing) {
    conditions.push(make(now));
    return true;
  }
  if (existing.status === next.status && existing.reason === next.reason && existing.message === next.message) return false;
  const replaced = make(existing.status === next.status && existing.lastTransitionTime ? existing.lastTransitionTime : now);
  conditions.splice(conditions.indexOf(existing), 1, replaced);
  return true;
}
