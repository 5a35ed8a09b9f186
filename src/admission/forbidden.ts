// admission.NewForbidden (apiserver pkg/admission/errors.go): a 403 on the request's resource,
// named as the request names it, else as the object names itself before its name is generated
// (metadata.name, then generateName), else "Unknown".
import { forbidden, type StatusError } from '../errors/status-error.ts';
import type { AdmissionAttributes } from '../registry/admission.ts';

export function admissionForbidden(attributes: AdmissionAttributes, why: string): StatusError {
  const meta = attributes.object?.metadata;
  const name = attributes.name || meta?.name || meta?.generateName || 'Unknown';
  return forbidden({ group: attributes.type.group, resource: attributes.type.plural }, name, why);
}

/** attributes.GetResource().GroupResource() == {group, resource} of a main resource. */
export function isResource(attributes: AdmissionAttributes, group: string, resource: string): boolean {
  return attributes.type.group === group && attributes.type.plural === resource;
}
