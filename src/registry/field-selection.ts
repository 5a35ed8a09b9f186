// Field selectors against a kind's supported fields: the conversion functions of
// pkg/apis/*/v1/conversion.go decide which keys a kind accepts and with which error text.
import type { KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { badRequest } from '../errors/status-error.ts';
import { parseFieldSelector, SelectorParseError } from '../selectors/field-selector.ts';

export type ObjectPredicate = (obj: KubeObject) => boolean;

const metadataFields: Record<string, (obj: KubeObject) => string> = {
  'metadata.name': (obj) => obj.metadata?.name ?? '',
  'metadata.namespace': (obj) => obj.metadata?.namespace ?? '',
};

/** The readable fields of a kind: its own conversion table, or the default metadata pair. */
export function selectableFields(type: ResourceType): Record<string, (obj: KubeObject) => string> {
  return type.fieldSelectors ?? metadataFields;
}

/** Parses and checks a field selector for a kind; undefined when it selects everything. */
export function compileFieldSelector(type: ResourceType, text: string | undefined): ObjectPredicate | undefined {
  if (!text) return undefined;
  let selector;
  try {
    selector = parseFieldSelector(text);
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
  if (selector.empty) return undefined;
  const fields = selectableFields(type);
  for (const { field } of selector.requirements) {
    if (fields[field]) continue;
    throw badRequest(
      type.fieldSelectors === null
        ? `${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`
        : (type.fieldLabelError?.(field) ?? `field label not supported: ${field}`),
    );
  }
  return (obj) => selector.matches((field) => fields[field]?.(obj));
}
