// PruneDefaults (apiextensions schema/defaulting/prune.go), run once when a CRD version is
// compiled for serving: default values are coerced and pruned like objects in a request, so the
// metadata of embedded resources inside a default loses unknown and malformed fields (CRD
// validation lets defaults carry those, "with the exception of defaults for metadata fields").
import type { SchemaNode } from './schema-node.ts';
import { coerceEmbeddedDropInvalid } from './embedded.ts';
import { deepCopyJson } from './json-value.ts';
import { pruneUnknownFields } from './prune.ts';

/** The default of `node` as the server applies it (the raw default when nothing changes). */
export function servedDefault(node: SchemaNode, isRoot: boolean): unknown {
  const value = deepCopyJson(node.default);
  // The Go code places the value in a surrounding object and runs Coerce and Prune from the root;
  // walking from the node itself visits the same schema nodes.
  coerceEmbeddedDropInvalid(value, node, isRoot);
  pruneUnknownFields(value, node, isRoot || node.embeddedResource);
  return value;
}
