// One watch event → one line of the stream, as handlers/watch.go's watchEncoder and
// response.go's watchEmbeddedEncoder write it: `{"type":…,"object":…}` with the object itself, or
// transformed into the negotiated view (PartialObjectMetadata, or a Table whose column
// definitions only the first event carries). ERROR events' Status is never transformed.
import type { KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import type { WatchEvent } from '../registry/watch.ts';
import { INITIAL_EVENTS_END_ANNOTATION } from '../registry/watch.ts';
import { marshalGoJson } from '../go/json-encode.ts';
import { jsonOf } from './object-json.ts';
import { includeObjectFrom, partialObjectMetadata, toTable, type ObjectView } from './table/index.ts';

export interface WatchEncoder {
  /** The line for `event` (newline included), or undefined where the apiserver ends the stream instead. */
  encode(event: WatchEvent): string | undefined;
}

const line = (type: string, objectJson: string) => `{"type":"${type}","object":${objectJson}}\n`;

/**
 * The encoder for a watch of `type` answered in `view`. Throws the apiserver's 400 for a bad
 * `includeObject` (optionsForTransform runs before the stream starts).
 */
export function watchEncoder(type: ResourceType, view: ObjectView | undefined, query: URLSearchParams, now: () => Date = () => new Date()): WatchEncoder {
  if (!view) return { encode: (event) => line(event.type, jsonOf(event.object)) };
  const isStatus = (event: WatchEvent) => event.object.kind === 'Status' && event.type === 'ERROR';
  if (view.kind === 'PartialObjectMetadata' && !view.list) {
    return {
      encode: (event) => line(event.type, isStatus(event) ? jsonOf(event.object) : marshalGoJson(partialObjectMetadata(event.object as KubeObject, view.version))),
    };
  }
  if (view.kind === 'PartialObjectMetadata') {
    // as=PartialObjectMetadataList: the transform fails for a single object, the untransformed
    // object then cannot be encoded with the meta.k8s.io codec, and WatchServer gives up on the
    // stream: it ends, without that event, when the first object arrives.
    return { encode: (event) => (isStatus(event) ? line(event.type, jsonOf(event.object)) : undefined) };
  }
  const includeObject = includeObjectFrom(query);
  let headers = true;
  return {
    encode(event) {
      if (isStatus(event)) return line(event.type, jsonOf(event.object));
      const object = event.object as KubeObject;
      const table = toTable(type, [object], { includeObject, version: view.version, now: now() });
      // NoHeaders from the second event on: the convertors then leave columnDefinitions nil.
      if (!headers) table.columnDefinitions = null;
      headers = false;
      // asTable: the initial-events-end bookmark's row always carries its metadata, None or not.
      if (includeObject === 'None' && object.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true') {
        for (const row of table.rows as Array<Record<string, unknown>>) row.object = partialObjectMetadata(object, view.version);
      }
      return line(event.type, marshalGoJson(table));
    },
  };
}
