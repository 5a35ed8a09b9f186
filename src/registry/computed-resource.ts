// Reads of a resource the server computes on every request rather than storing it
// (ResourceType.computed; the componentstatus REST of pkg/registry/core/componentstatus): a list
// filtered by the label and field selectors as DefaultPredicateFunc filters it, with no
// resourceVersion; a get of an unknown name is the REST's plain Go error, which the handler
// answers as a 500.
import type { KubeObject } from '../apis/object.ts';
import type { ListOptions } from '../apis/options.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { internalError } from '../errors/status-error.ts';
import { compileFieldSelector } from './field-selection.ts';
import { compileLabelSelector, type ListResult } from './list.ts';

export function computedGet(type: ResourceType, name: string): KubeObject {
  const found = type.computed!.items().find((o) => o.metadata?.name === name);
  if (!found) throw internalError(type.computed!.missing(name));
  return found;
}

export function computedList(type: ResourceType, options: ListOptions): ListResult {
  const byLabel = compileLabelSelector(options.labelSelector);
  const byField = compileFieldSelector(type, options.fieldSelector);
  const items = type.computed!.items().filter((o) => (!byLabel || byLabel(o)) && (!byField || byField(o)));
  return { items, resourceVersion: '', continue: undefined, remainingItemCount: undefined };
}
