// Dynamic resource allocation in a PodSpec (pkg/apis/core/validation/validation.go, v1.36):
// validatePodResourceClaims (each claim named, a unique DNS label, exactly one of
// resourceClaimName and resourceClaimTemplateName, each a subdomain) and validateResourceClaimNames
// (a container's resources.claims name pod claims, each claim or claim/request once). A claim is
// printed as Go marshals the internal PodResourceClaim (Go field names, no json tags).
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.ts';
import { isPlainObject } from '../object.ts';
import { goString } from './shared.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const optional = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** gatherPodResourceClaimNames: every non-empty claim name. */
export const podClaimNames = (spec: Json): Set<string> => new Set(list(spec.resourceClaims).map((c) => goString(c.name)).filter((n) => n !== ''));

/** validatePodResourceClaims; `path` is `spec.resourceClaims`. */
export function validatePodResourceClaims(claims: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(claims).forEach((claim, i) => {
    const idx = `${path}[${i}]`;
    const name = goString(claim.name);
    if (name === '') errs.push(fieldError.required(`${idx}.name`));
    else if (seen.has(name)) errs.push(fieldError.duplicate(`${idx}.name`, name));
    else {
      errs.push(...isDNS1123Label(name).map((m) => fieldError.invalid(`${idx}.name`, name, m)));
      seen.add(name);
    }
    const claimName = optional(claim.resourceClaimName);
    const templateName = optional(claim.resourceClaimTemplateName);
    const internal = { Name: name, ResourceClaimName: claimName, ResourceClaimTemplateName: templateName };
    if (claimName !== null && templateName !== null) errs.push(fieldError.invalid(idx, internal, 'at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified'));
    if (claimName === null && templateName === null) errs.push(fieldError.invalid(idx, internal, 'must specify one of: `resourceClaimName`, `resourceClaimTemplateName`'));
    if (claimName !== null) errs.push(...isDNS1123Subdomain(claimName).map((m) => fieldError.invalid(`${idx}.resourceClaimName`, claimName, m)));
    if (templateName !== null) errs.push(...isDNS1123Subdomain(templateName).map((m) => fieldError.invalid(`${idx}.resourceClaimTemplateName`, templateName, m)));
  });
  return errs;
}

/** validateResourceClaimNames; `path` is `…resources.claims`. */
export function validateResourceClaimNames(claims: unknown, podClaims: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(claims).forEach((claim, i) => {
    const idx = `${path}[${i}]`;
    const name = goString(claim.name);
    if (name === '') {
      errs.push(fieldError.required(idx));
      return;
    }
    if (names.has(name)) errs.push(fieldError.duplicate(idx, name)); // every request of that claim is referenced already
    else {
      const request = goString(claim.request);
      let key = name;
      if (request !== '') {
        errs.push(...isDNS1123Label(request).map((m) => fieldError.invalid(`${idx}.request`, request, m)));
        key += `/${request}`;
      }
      if (names.has(key)) errs.push(fieldError.duplicate(idx, key));
      else if (request === '') {
        // A whole claim after one of its requests overlaps that request.
        for (const seen of names) if (seen.includes('/') && seen.slice(0, seen.indexOf('/')) === name) errs.push(fieldError.duplicate(idx, name));
      }
      names.add(key);
    }
    if (!podClaims.has(name)) {
      const known = [...podClaims].sort();
      errs.push({ ...fieldError.notFound(idx, name), detail: `must be one of the names in pod.spec.resourceClaims${known.length ? `: ${known.join(', ')}` : ' which is empty'}` });
    }
  });
  return errs;
}
