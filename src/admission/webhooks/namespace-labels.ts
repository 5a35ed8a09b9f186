// namespace.Matcher.GetNamespaceLabels (apiserver/pkg/admission/plugin/webhook/predicates/
// namespace/matcher.go): the labels a namespaceSelector is matched against, for webhooks and
// admission policies alike.
import { notFound } from '../../errors/status-error.ts';
import type { VersionedStore } from '../../storage/versioned-store.ts';
import type { WebhookRequest } from './request.ts';

/** The parts of a request the lookup reads (`namespace` as admission.Attributes.GetNamespace has it). */
export type NamespacedRequest = Pick<WebhookRequest, 'resource' | 'subresource' | 'operation' | 'namespace' | 'object'>;

/**
 * A namespace's own labels for its create and update, else the stored namespace's; a missing
 * namespace answers its NotFound Status, as the real matcher does for compatibility.
 */
export function namespaceLabels(store: VersionedStore, r: NamespacedRequest): Record<string, string> | undefined {
  if (r.resource.resource === 'namespaces' && r.subresource === '' && (r.operation === 'CREATE' || r.operation === 'UPDATE')) {
    return r.object?.metadata?.labels;
  }
  const namespace = store.get('/namespaces', r.namespace);
  if (!namespace) throw notFound({ group: '', resource: 'namespaces' }, r.namespace);
  return namespace.metadata.labels;
}
