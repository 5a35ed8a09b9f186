// admission.NewForbidden (apiserver/pkg/admission/errors.go): a plugin's refusal as a 403 about
// the object, named as extractResourceName does before a generated name exists.
import { forbidden, type StatusError } from '../errors/status-error.ts';
import type { AdmissionAttributes } from '../registry/admission.ts';
import { generatedPrefix } from '../registry/generate-name.ts';

/**
 * `phase` says where the refusal comes from: the real mutating phase runs before rest.BeforeCreate
 * generates a name, so a create with generateName is named by its prefix there (`pods "web-"`);
 * the registry here generates the name first, and this undoes that for 'admit'.
 */
export function admissionForbidden(attributes: AdmissionAttributes, why: string, phase: 'admit' | 'validate' = 'validate'): StatusError {
  const meta = attributes.object?.metadata;
  let name = extractResourceName(attributes);
  if (phase === 'admit' && attributes.operation === 'CREATE' && meta?.name && meta.generateName && generatedPrefix(meta.name, meta.generateName) !== undefined) {
    name = meta.generateName;
  }
  return forbidden({ group: attributes.type.group, resource: attributes.type.plural }, name, why);
}

/** admission.extractResourceName: the request's name, else the object's name or generateName, else "Unknown". */
export function extractResourceName(attributes: AdmissionAttributes): string {
  const meta = attributes.object?.metadata;
  return attributes.name || meta?.name || meta?.generateName || 'Unknown';
}

/** attributes.GetResource().GroupResource() == {group, resource} of a main resource. */
export function isResource(attributes: AdmissionAttributes, group: string, resource: string): boolean {
  return attributes.type.group === group && attributes.type.plural === resource;
}
