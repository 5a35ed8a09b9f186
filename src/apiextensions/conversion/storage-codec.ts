// The storage codec of one served version of a CRD with several versions (customresource_handler.go
// crdConversionRESTOptionsGetter): a write is converted to the storage version; an object read back
// is pruned with the schema of the version it was stored at (schemaCoercingDecoder), converted,
// then pruned with the schema of the version asked for (schemaCoercingConverter). The defaults of
// the stored version (unstructuredDefaulter) are not applied here: the type's fromStorage applies
// them on every read, before the codec, also for CRDs whose objects need no conversion. No
// defaults of the requested version are applied on read.
import { parseApiVersion, type KubeObject } from '../../apis/object.ts';
import type { ConversionEnv, StorageCodec } from '../../apis/storage-codec.ts';
import { pruneNonNullableNulls, pruneUnknownFields, type CompiledSchema } from '../../schema/index.ts';
import { customResourceConverter } from './converter.ts';

type MaybePromise<T> = T | Promise<T>;
const then = <T, U>(value: MaybePromise<T>, f: (v: T) => U): MaybePromise<U> => (value instanceof Promise ? value.then(f) : f(value));

interface CrdSpec {
  group?: string;
  versions?: Array<{ name?: string; storage?: boolean }>;
}

/**
 * The codec of each served version. A CRD with one version has one too: objects stored at a
 * version since removed from the CRD fail to convert, as they do in the apiserver.
 */
export function customResourceCodecs(crdSpec: unknown, compiledByVersion: ReadonlyMap<string, CompiledSchema>): ((version: string) => StorageCodec) | undefined {
  const spec = (crdSpec ?? {}) as CrdSpec;
  if ((spec.versions ?? []).length === 0) return undefined;
  const group = spec.group ?? '';
  const storageVersion = spec.versions!.find((v) => v.storage)?.name ?? '';
  const converter = customResourceConverter(crdSpec);
  /** unstructuredSchemaCoercer.apply: prune unknown fields, drop nulls the schema does not allow. */
  const coerce = (obj: KubeObject) => {
    const compiled = compiledByVersion.get(parseApiVersion(String(obj.apiVersion ?? '')).version);
    if (!compiled) return obj;
    pruneUnknownFields(obj, compiled.root, true);
    pruneNonNullableNulls(obj, compiled.root);
    return obj;
  };
  return (version) => {
    const servedApiVersion = `${group}/${version}`;
    const storageApiVersion = `${group}/${storageVersion}`;
    return {
      encode(obj: KubeObject, env: ConversionEnv) {
        if (obj.apiVersion === storageApiVersion) return obj;
        return then(converter.convert([structuredClone(obj)], storageVersion, env, false), ([converted]) => coerce(converted!));
      },
      decode(objs: readonly KubeObject[], env: ConversionEnv, isList: boolean) {
        const pending: number[] = [];
        objs.forEach((o, i) => o.apiVersion !== servedApiVersion && pending.push(i));
        if (pending.length === 0) return objs.slice();
        // The whole list goes to the converter (it skips objects already at the version), so a
        // bad item is reported at its list index; only the pending ones are copied and coerced.
        const decoded = objs.slice();
        for (const i of pending) decoded[i] = coerce(structuredClone(objs[i]!));
        return then(converter.convert(decoded, version, env, isList), (converted) => {
          const out = converted.slice();
          for (const i of pending) out[i] = coerce(out[i]!);
          return out;
        });
      },
    };
  };
}
