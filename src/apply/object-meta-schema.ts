// metav1.ObjectMeta's apply schema, shared by built-ins and custom resources (the CRD builder
// references the same definition for metadata).
import { builtinSchema } from './builtin-schema.ts';
import type { Atom } from './smd-schema.ts';

export function builtinObjectMeta(): Atom {
  return builtinSchema('', 'v1', 'ConfigMap')!.map!.fields.get('metadata')!.type;
}
