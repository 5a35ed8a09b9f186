// Declarative protobuf message tables and their compiled form.
//
// A table row is [field number, json tag, type], generated (scripts/gen-protobuf-messages.py) from
// a Go struct field of types.go: its protobuf tag (number) and its json tag and Go type.
// Both halves matter: gogo-protobuf writes every non-pointer field, zero or not, so the wire
// cannot tell `0` from "unset"; the JSON shape comes from the Go field's type and tag, exactly
// as encoding/json would print the decoded Go struct.
//
// Type notation (Go-like):
//   string | bytes | bool | int32 | int64      proto scalars (bytes is Go []byte: base64 in JSON)
//   Time | MicroTime | Quantity | IntOrString | FieldsV1 | RawExtension
//                                              apimachinery types with custom proto/JSON forms
//   meta.v1.ObjectMeta, core.v1.PodSpec, ...   a message from this registry (`<pkg>.<version>.<Name>`)
//   *T        a Go pointer: in JSON iff present on the wire (so `false`/`0` survive)
//   []T       repeated (Go slice; nil unless at least one element arrived)
//   map[string]T   proto map<string, T> (repeated {key = 1, value = 2} entries)
// Json tag: `name`, `name,omitempty`, `name,omitempty,omitzero`, or `,inline` (an embedded
// struct whose fields Go flattens into the parent).

export type FieldRow = readonly [field: number, jsonTag: string, type: string];
export type MessageTable = Readonly<Record<string, readonly FieldRow[]>>;

export type ScalarKind = 'string' | 'bytes' | 'bool' | 'int32' | 'int64';
export type SpecialKind = 'Time' | 'MicroTime' | 'Quantity' | 'IntOrString' | 'FieldsV1' | 'RawExtension';
export type FieldKind = ScalarKind | SpecialKind | 'message';
/** value: a plain Go field; pointer: *T; list: []T; map: map[string]T. */
export type FieldShape = 'value' | 'pointer' | 'list' | 'map';

export interface FieldSpec {
  readonly number: number;
  /** The JSON key; empty for inline fields. */
  readonly json: string;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
  readonly inline: boolean;
  readonly shape: FieldShape;
  /** For maps, the value's kind (keys are always strings). */
  readonly kind: FieldKind;
  /** The message name when kind is 'message'. */
  readonly message: string | undefined;
}

export interface MessageSpec {
  /** Registry name, e.g. `core.v1.ConfigMap`. */
  readonly name: string;
  /** The Go type name, as gogo's error texts use it. */
  readonly goName: string;
  /** In Go declaration order, the order encoding/json writes keys in. */
  readonly fields: readonly FieldSpec[];
  /** A named slice's wrapper `{ repeated T items = 1 }`: its JSON is the slice, not an object. */
  readonly sliceWrapper: boolean;
  readonly byNumber: ReadonlyMap<number, FieldSpec>;
}

const SCALARS: ReadonlySet<string> = new Set<ScalarKind>(['string', 'bytes', 'bool', 'int32', 'int64']);
const SPECIALS: ReadonlySet<string> = new Set<SpecialKind>(['Time', 'MicroTime', 'Quantity', 'IntOrString', 'FieldsV1', 'RawExtension']);

function parseType(type: string, where: string): { shape: FieldShape; kind: FieldKind; message: string | undefined } {
  let shape: FieldShape = 'value';
  let base = type;
  if (base.startsWith('map[string]')) {
    shape = 'map';
    base = base.slice('map[string]'.length);
  } else if (base.startsWith('[]')) {
    shape = 'list';
    base = base.slice(2);
  } else if (base.startsWith('*')) {
    shape = 'pointer';
    base = base.slice(1);
  }
  if (SCALARS.has(base) || SPECIALS.has(base)) return { shape, kind: base as ScalarKind | SpecialKind, message: undefined };
  if (/^[a-z0-9]+\.v\w+\.[A-Z]\w*$/.test(base)) return { shape, kind: 'message', message: base };
  throw new Error(`protobuf schema ${where}: unsupported type ${JSON.stringify(type)}`);
}

function compileField(row: FieldRow, where: string): FieldSpec {
  const [number, tag, type] = row;
  const [json = '', ...options] = tag.split(',');
  const inline = json === '' && options.includes('inline');
  if (json === '' && !inline) throw new Error(`protobuf schema ${where}: field ${number} has no json name`);
  const parsed = parseType(type, where);
  if (inline && (parsed.shape !== 'value' || parsed.kind !== 'message')) throw new Error(`protobuf schema ${where}: only embedded structs can be inline`);
  return { number, json, omitEmpty: options.includes('omitempty'), omitZero: options.includes('omitzero'), inline, ...parsed };
}

/** Compiles table rows on first use; `check()` compiles everything and resolves every reference. */
export class MessageRegistry {
  private readonly table: MessageTable;
  private readonly compiled = new Map<string, MessageSpec>();

  private readonly sliceWrappers: ReadonlySet<string>;

  constructor(table: MessageTable, sliceWrappers: readonly string[] = []) {
    this.table = table;
    this.sliceWrappers = new Set(sliceWrappers);
  }

  has(name: string): boolean {
    return Object.hasOwn(this.table, name);
  }

  get(name: string): MessageSpec {
    let spec = this.compiled.get(name);
    if (spec) return spec;
    if (!this.has(name)) throw new Error(`protobuf schema: unknown message ${name}`);
    const fields = this.table[name]!.map((row) => compileField(row, name));
    const byNumber = new Map<number, FieldSpec>();
    for (const f of fields) {
      if (byNumber.has(f.number)) throw new Error(`protobuf schema ${name}: duplicate field number ${f.number}`);
      byNumber.set(f.number, f);
    }
    spec = { name, goName: name.slice(name.lastIndexOf('.') + 1), fields, byNumber, sliceWrapper: this.sliceWrappers.has(name) };
    this.compiled.set(name, spec);
    return spec;
  }

  /** Every message name, for tests. Throws on a table error or a dangling reference. */
  check(): string[] {
    const names = Object.keys(this.table);
    for (const name of names) {
      for (const f of this.get(name).fields) {
        if (f.message !== undefined && !this.has(f.message)) throw new Error(`protobuf schema ${name}: field ${f.number} refers to unknown message ${f.message}`);
      }
    }
    return names;
  }
}
