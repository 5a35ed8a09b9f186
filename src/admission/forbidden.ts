// admission.NewForbidden (apiserver/pkg/admission/errors.go): a plugin's refusal as a 403 about
// the object, named as extractResourceName does. A generateName create has no name in the
// mutating phase (the registry generates it afterwards), so a refusal there names the prefix
// (`pods "web-"`); the validating phase is asked by the generated name.
import { forbidden, type StatusError } from '../errors/status-error.ts';
import type { AdmissionAttributes } from '../registry/admission.ts';

export function admissionForbidden(attributes: AdmissionAttributes, why: string): StatusError {
  return forbidden({ group: attributes.type.group, resource: attributes.type.plural }, extractResourceName(attributes), why);
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
