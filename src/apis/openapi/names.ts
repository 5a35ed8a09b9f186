// Names the real apiserver gives OpenAPI definitions, operations and index entries
// (apiserver/pkg/endpoints/openapi GetOperationIDAndTags, kube-openapi util.ToRESTFriendlyName).
import type { ResourceType } from '../resource-type.ts';

export type Json = Record<string, unknown>;

/** Index key of a group version: `api/v1` or `apis/<group>/<version>` (no leading slash). */
export const gvKey = (group: string, version: string): string => (group === '' ? `api/${version}` : `apis/${group}/${version}`);

/** URL prefix of a group version. */
export const gvRoot = (group: string, version: string): string => `/${gvKey(group, version)}`;

/** Go packages of the built-in groups kubefake serves; others fall back to the group's first label. */
const BUILTIN_PACKAGES: Record<string, string> = {
  '': 'io.k8s.api.core',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
  'rbac.authorization.k8s.io': 'io.k8s.api.rbac',
};

/** `io.k8s.api.apps.v1.Deployment` for built-ins; `com.example.stable.v1.CronTab` for custom resources. */
export function definitionName(type: Pick<ResourceType, 'group' | 'version' | 'unstructured'>, kind: string): string {
  if (type.unstructured) return `${restFriendlyGroup(type.group)}.${type.version}.${kind}`;
  const pkg = BUILTIN_PACKAGES[type.group] ?? `io.k8s.api.${type.group.split('.')[0]}`;
  return `${pkg}.${type.version}.${kind}`;
}

/** util.ToRESTFriendlyName on `<group>/<version>.<Kind>`: the group's DNS labels reversed. */
function restFriendlyGroup(group: string): string {
  return group.includes('.') ? group.split('.').reverse().join('.') : group;
}

export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const SCALE = 'io.k8s.api.autoscaling.v1.Scale';

/** ToValidOperationID: drops non-letters (digits allowed after the first rune), capitalising what follows them. */
export function toValidOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  [...s].forEach((ch, i) => {
    if (/\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\d/.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
  });
  return out;
}

/** The operation-id infix and the tag of a group version: `AppsV1` / `apps_v1`, `CoreV1` / `core_v1`. */
export function groupVersionNaming(group: string, version: string): { infix: string; tag: string } {
  const g = toValidOperationId((group === '' ? 'core' : group).replace(/\.k8s\.io$/, ''), false);
  const v = toValidOperationId(version, false);
  return { infix: cap(g) + cap(v), tag: `${g}_${v}` };
}

export const cap = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** endpoints.GetArticleForNoun with padding " ": plurals get none, vowels "an". */
export function articleFor(noun: string): string {
  if (!noun.endsWith('ss') && noun.endsWith('s')) return ' ';
  return /^[aeiouAEIOU]/.test(noun) ? ' an ' : ' a ';
}
