// A failed conversion. The apiserver's storage returns the converter's plain Go error, which the
// handler answers as 500 with the error text and no reason (ErrorToAPIStatus of a non-Status error).
import type { KubeObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';

export class ConversionError extends StatusError {
  constructor(message: string) {
    super({ message, code: 500 });
    this.name = 'ConversionError';
  }
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** schema.GroupVersionKind.String() of an object: `<group>/<version>, Kind=<Kind>`. */
export function gvkString(obj: KubeObject): string {
  const { group, version } = splitApiVersion(typeof obj.apiVersion === 'string' ? obj.apiVersion : '');
  return `${group}/${version}, Kind=${obj.kind ?? ''}`;
}
