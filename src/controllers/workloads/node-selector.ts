// NodeSelectorTerm matching (k8s.io/component-helpers/scheduling/corev1/nodeaffinity): what the
// scheduler's NodeAffinity filter and a PersistentVolume's node affinity both ask of a node.
import type { KubeObject } from '../../apis/object.ts';
import { newRequirement, requirementMatches, type LabelOperator } from '../../selectors/label-requirement.ts';
import { labelsOf, type Json } from './objects.ts';

const OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' };

/** A NodeSelectorTerm's matchExpressions and matchFields (metadata.name only) against a node. */
export function termMatches(term: Json, node: KubeObject): boolean {
  const expressions = (term.matchExpressions as Json[] | undefined) ?? [];
  const fields = (term.matchFields as Json[] | undefined) ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const matches = (e: Json, labels: Record<string, string>) => {
    const op = OPERATORS[String(e.operator)];
    if (!op) return false;
    try {
      return requirementMatches(newRequirement(String(e.key), op, ((e.values as string[] | undefined) ?? []).map(String)), labels);
    } catch {
      return false;
    }
  };
  return expressions.every((e) => matches(e, labelsOf(node))) && fields.every((e) => matches(e, { 'metadata.name': node.metadata!.name! }));
}

/** NodeSelector terms are ORed: the node matches one of them. */
export const anyTermMatches = (terms: readonly Json[], node: KubeObject): boolean => terms.some((term) => termMatches(term, node));
