// pkg/apiserver/schema/pruning/algorithm.go (Prune), used here to tell whether a default value
// carries fields its schema would drop ("must not have unknown fields").
import { isPlainObject } from '../../apis/object.ts';
import type { Structural } from './structural.ts';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/** Prunes `x` in place. At a resource root (or embedded resource) TypeMeta/ObjectMeta are kept. */
export function prune(x: unknown, s: Structural | undefined, isResourceRoot: boolean): void {
  if (isResourceRoot) {
    s = s === undefined ? embeddedRoot() : s.xEmbeddedResource ? s : { ...s, xEmbeddedResource: true };
  }
  pruneNode(x, s);
}

function embeddedRoot(): Structural {
  return {
    description: '', type: '', title: '', default: undefined, nullable: false, externalDocs: undefined, example: undefined,
    xPreserveUnknownFields: false, xEmbeddedResource: true, xIntOrString: false, xListMapKeys: undefined, xListType: undefined, xMapType: undefined,
    items: undefined, properties: undefined, additionalProperties: undefined, xValidations: undefined, valueValidation: undefined, source: undefined,
  };
}

function pruneNode(x: unknown, s: Structural | undefined): void {
  if (s !== undefined && s.xPreserveUnknownFields) {
    skipPrune(x, s);
    return;
  }
  if (isPlainObject(x)) {
    if (s === undefined) {
      for (const k of Object.keys(x)) delete x[k];
      return;
    }
    for (const [k, v] of Object.entries(x)) {
      if (s.xEmbeddedResource && META_FIELDS.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop !== undefined) pruneNode(v, prop);
      else if (s.additionalProperties !== undefined) pruneNode(v, s.additionalProperties.structural);
      else delete x[k];
    }
  } else if (Array.isArray(x)) {
    for (const v of x) pruneNode(v, s?.items);
  }
}

function skipPrune(x: unknown, s: Structural | undefined): void {
  if (s === undefined) return;
  if (isPlainObject(x)) {
    for (const [k, v] of Object.entries(x)) {
      if (s.xEmbeddedResource && META_FIELDS.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop !== undefined) pruneNode(v, prop);
      else if (s.additionalProperties !== undefined) pruneNode(v, s.additionalProperties.structural);
    }
  } else if (Array.isArray(x)) {
    for (const v of x) skipPrune(v, s.items);
  }
}
