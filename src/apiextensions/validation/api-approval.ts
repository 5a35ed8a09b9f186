// validateAPIApproval (validation.go) with apihelpers.IsProtectedCommunityGroup and
// GetAPIApprovalState: CRDs in *.k8s.io / *.kubernetes.io need the api-approved annotation.
import { fieldError, fieldPath, type FieldError } from '../../errors/field-error.ts';
import { goQuote } from '../../errors/go-format.ts';
import { parseRequestURI, UrlError } from '../../go/net-url.ts';
import type { Crd } from './internal-types.ts';

export const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';

type ApprovalState = 'invalid' | 'approved' | 'bypassed' | 'missing';

export function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

function approvalState(annotations: Record<string, string>): { state: ApprovalState; reason: string } {
  const annotation = annotations[API_APPROVED_ANNOTATION] ?? '';
  if (annotation.length === 0) {
    return { state: 'missing', reason: `protected groups must have approval annotation ${goQuote(API_APPROVED_ANNOTATION)}, see https://github.com/kubernetes/enhancements/pull/1111` };
  }
  if (annotation.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: ${goQuote(annotation)}` };
  try {
    const u = parseRequestURI(annotation);
    if (u.host.length > 0 && u.scheme.length > 0) return { state: 'approved', reason: `approved in ${annotation}` };
  } catch (e) {
    if (!(e instanceof UrlError)) throw e;
  }
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation ${goQuote(API_APPROVED_ANNOTATION)} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

export function validateAPIApproval(crd: Crd, old: Crd | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(crd.spec.group)) return [];
  const next = approvalState(crd.annotations);
  // An unchanged state never fails, so controllers that only touch spec keep working.
  if (old !== undefined && approvalState(old.annotations).state === next.state) return [];
  const path = fieldPath.key(fieldPath.child('metadata', 'annotations'), API_APPROVED_ANNOTATION);
  switch (next.state) {
    case 'missing':
      return [fieldError.required(path, next.reason)];
    case 'invalid':
      return [fieldError.invalid(path, crd.annotations[API_APPROVED_ANNOTATION] ?? '', next.reason)];
    default:
      return [];
  }
}
