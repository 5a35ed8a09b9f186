// A failed conversion. The apiserver's storage returns the converter's plain Go error, which the
// handler answers as 500 with the error text and no reason (ErrorToAPIStatus of a non-Status error).
import { parseApiVersion, type KubeObject } from '../../apis/object.ts';
import { StatusError } from '../../errors/status-error.ts';

export class ConversionError extends StatusError {
  constructor(message: string) {
    super({ message, code: 500 });
    this.name = 'ConversionError';
  }
}

/** schema.GroupVersionKind.String() of an object: `<group>/<version>, Kind=<Kind>`. */
export function gvkString(obj: KubeObject): string {
  const { group, version } = parseApiVersion(typeof obj.apiVersion === 'string' ? obj.apiVersion : '');
  return `${group}/${version}, Kind=${obj.kind ?? ''}`;
}
