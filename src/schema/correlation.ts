// Pairs each node of the new object with its counterpart in the old one, for validation
// ratcheting (k8s.io/apiserver pkg/cel/common/equality.go CorrelatedObject). Map entries pair by
// key when the schema names them (property or additionalProperties); list items pair only in
// x-kubernetes-list-type=map lists, by their map keys. Sets and atomic lists do not pair.
import type { SchemaNode } from './schema-node.ts';
import { deepEqual } from '../util/deep-equal.ts';
import { isObject } from './json-value.ts';

export class Correlation {
  readonly value: unknown;
  readonly old: unknown;
  readonly schema: SchemaNode;
  private equal: boolean | undefined;
  private children: Map<string | number, Correlation | null> | undefined;
  private oldByKey: Map<string, unknown> | undefined;

  constructor(value: unknown, old: unknown, schema: SchemaNode) {
    this.value = value;
    this.old = old;
    this.schema = schema;
  }

  key(field: string): Correlation | undefined {
    const cached = this.children?.get(field);
    if (cached !== undefined) return cached ?? undefined;
    let res: Correlation | null = null;
    if (isObject(this.old) && isObject(this.value) && Object.hasOwn(this.old, field) && Object.hasOwn(this.value, field)) {
      const prop = this.schema.properties?.get(field) ?? (typeof this.schema.additionalProperties === 'object' ? this.schema.additionalProperties : undefined);
      if (prop) res = new Correlation(this.value[field], this.old[field], prop);
    }
    (this.children ??= new Map()).set(field, res);
    return res ?? undefined;
  }

  index(i: number): Correlation | undefined {
    const cached = this.children?.get(i);
    if (cached !== undefined) return cached ?? undefined;
    let res: Correlation | null = null;
    const items = this.schema.items;
    if (Array.isArray(this.value) && i < this.value.length && Array.isArray(this.old) && items && this.schema.listType === 'map') {
      const old = this.oldMapListGet(this.value[i]);
      // A correlated old value of nil counts as "no counterpart" in Go.
      if (old !== undefined && old !== null) res = new Correlation(this.value[i], old, items);
    }
    (this.children ??= new Map()).set(i, res);
    return res ?? undefined;
  }

  /** CachedDeepEqual: unchanged, judged through correlation rather than plain equality. */
  deepEqual(): boolean {
    if (this.equal === undefined) this.equal = this.computeEqual();
    return this.equal;
  }

  private computeEqual(): boolean {
    const v = this.value;
    const o = this.old;
    if (v === null && o === null) return true;
    if (v === null || o === null || v === undefined || o === undefined) return false;
    if (Array.isArray(o) !== Array.isArray(v) || isObject(o) !== isObject(v)) return false;
    if (Array.isArray(o) && Array.isArray(v)) {
      if (o.length !== v.length) return false;
      for (let i = 0; i < v.length; i++) {
        const child = this.index(i);
        if (!child) return this.oldByKey === undefined ? deepEqual(o, v) : false;
        if (!child.deepEqual()) return false;
      }
      return true;
    }
    if (isObject(o) && isObject(v)) {
      const keys = Object.keys(v);
      if (Object.keys(o).length !== keys.length) return false;
      for (const k of keys) {
        const child = this.key(k);
        if (!child || !child.deepEqual()) return false;
      }
      return true;
    }
    return deepEqual(o, v);
  }

  private oldMapListGet(item: unknown): unknown {
    if (!this.oldByKey) {
      this.oldByKey = new Map();
      for (const e of this.old as unknown[]) {
        const k = mapListKey(this.schema, e);
        if (k !== undefined && !this.oldByKey.has(k)) this.oldByKey.set(k, e);
      }
    }
    const k = mapListKey(this.schema, item);
    return k === undefined ? undefined : this.oldByKey.get(k);
  }
}

// The composite key of a list-map item; a missing key field falls back to its schema default.
function mapListKey(s: SchemaNode, item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const parts: unknown[] = [];
  for (const k of s.listMapKeys) {
    if (Object.hasOwn(item, k)) parts.push(item[k]);
    else {
      const prop = s.items?.properties?.get(k);
      if (!prop?.hasDefault) return undefined;
      parts.push(prop.default);
    }
  }
  return JSON.stringify(parts);
}
