// Where the resources Pod Security looks at hold a pod spec (admission.go,
// DefaultPodSpecExtractor): the pod itself, or the pod template of a pod controller.
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import type { PodMetadataView, PodSpecView } from './pod-view.ts';

export interface ExtractedPodSpec {
  metadata: PodMetadataView;
  spec: PodSpecView;
}

type TemplatePath = readonly string[];

/** The pod controllers, by `group/resource`, and the path of their pod template. */
const POD_TEMPLATES: ReadonlyMap<string, TemplatePath> = new Map<string, TemplatePath>([
  ['/replicationcontrollers', ['spec', 'template']],
  ['/podtemplates', ['template']],
  ['apps/replicasets', ['spec', 'template']],
  ['apps/deployments', ['spec', 'template']],
  ['apps/statefulsets', ['spec', 'template']],
  ['apps/daemonsets', ['spec', 'template']],
  ['batch/jobs', ['spec', 'template']],
  ['batch/cronjobs', ['spec', 'jobTemplate', 'spec', 'template']],
]);

const groupResource = (group: string, resource: string) => `${group}/${resource}`;

/** HasPodSpec for a controller resource (pods are handled apart). */
export function isPodController(group: string, resource: string): boolean {
  return POD_TEMPLATES.has(groupResource(group, resource));
}

const asObject = (v: unknown): Record<string, unknown> | undefined => (isPlainObject(v) ? v : undefined);

/**
 * ExtractPodSpec of a controller: its template's metadata and spec. Only the replication
 * controller's template is a pointer (absent: nothing to check); the others are values, so an
 * absent one is an empty template and still evaluated.
 */
export function extractTemplate(group: string, resource: string, object: KubeObject): ExtractedPodSpec | undefined {
  const path = POD_TEMPLATES.get(groupResource(group, resource));
  if (!path) return undefined;
  let node: Record<string, unknown> | undefined = object as Record<string, unknown>;
  for (const key of path) node = asObject(node?.[key]);
  if (!node && group === '' && resource === 'replicationcontrollers') return undefined;
  return { metadata: (asObject(node?.metadata) ?? {}) as PodMetadataView, spec: (asObject(node?.spec) ?? {}) as PodSpecView };
}

/** A pod's own metadata and spec. */
export function podSpecOf(pod: KubeObject): ExtractedPodSpec {
  const p = pod as Record<string, unknown>;
  return { metadata: (asObject(p.metadata) ?? {}) as PodMetadataView, spec: (asObject(p.spec) ?? {}) as PodSpecView };
}
