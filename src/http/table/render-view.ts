// handlers/response.go transformResponseObject for GET and LIST: turns what the registry answered
// into the negotiated view (Table or PartialObjectMetadata(List)), with the apiserver's errors.
import type { KubeObject, ListMeta } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { goQuote } from '../../errors/go-format.ts';
import { badRequest, plainServerError, StatusError } from '../../errors/status-error.ts';
import type { ObjectView } from './negotiate.ts';
import { partialObjectMetadata, partialObjectMetadataList } from './partial-metadata.ts';
import { toTable, type IncludeObject } from './table.ts';

/** A GET answer: one object, or a list body (`{kind, apiVersion, metadata, items}`). */
export type ViewSource = { object: KubeObject } | { list: { metadata?: ListMeta; items: KubeObject[] } };

/**
 * The body to send for `view`. Throws a StatusError where the apiserver answers an error:
 * 400 for a bad `includeObject` (Tables only), 406 when the single/list form does not fit.
 */
export function renderView(view: ObjectView, type: ResourceType, source: ViewSource, query: URLSearchParams, now: Date = new Date()): Record<string, unknown> {
  if (view.kind === 'Table') {
    const includeObject = includeObjectFrom(query);
    if ('list' in source) return toTable(type, source.list.items, { list: source.list.metadata ?? {}, includeObject, version: view.version, now });
    return toTable(type, [source.object], { includeObject, version: view.version, now });
  }
  if (!view.list) {
    if ('list' in source) throw notAcceptable(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(type, true)})`);
    return partialObjectMetadata(source.object, view.version);
  }
  if ('object' in source) {
    // *unstructured.Unstructured passes the metav1.ListInterface check, then EachListItem fails
    // on the missing items: a plain (non-Status) error, so 500 without a reason.
    if (type.unstructured) throw plainServerError('content is not a list');
    throw notAcceptable(`you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(type, false)})`);
  }
  return partialObjectMetadataList(source.list.items, source.list.metadata, view.version);
}

/** TableOptions.includeObject, validated as ValidateTableOptions does (empty = Metadata). */
export function includeObjectFrom(query: URLSearchParams): IncludeObject | undefined {
  const value = query.get('includeObject') ?? '';
  if (value === '') return undefined;
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${goQuote(value)}: must be 'Metadata', 'Object', 'None', or empty`);
}

/** handlers/response.go errNotAcceptable: 406 NotAcceptable with no details. */
function notAcceptable(message: string): StatusError {
  return new StatusError({ message, reason: 'NotAcceptable', code: 406 });
}

/**
 * The %T of the object the storage returned: the internal type (`*core.ConfigMap`,
 * `*apps.DeploymentList`) or unstructured for custom resources. events.k8s.io Events are
 * stored as core Events.
 */
function goTypeName(type: ResourceType, list: boolean): string {
  if (type.unstructured) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const pkg = type.group === '' || type.group === 'events.k8s.io' ? 'core' : type.group.split('.')[0]!;
  return `*${pkg}.${type.kind}${list ? 'List' : ''}`;
}
