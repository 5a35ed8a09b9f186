// /openapi/v2 in protobuf: the swagger document as gnostic's openapi_v2.Document, which is what
// kube-openapi's ToProtoBinary marshals (openapi_v2.ParseDocument of the JSON, then proto.Marshal;
// kube-openapi pkg/handler/handler.go). Messages, field numbers and the JSON key each field reads
// come from the generated table; what the readers of gnostic-models openapiv2/OpenAPIv2.go decide
// in code is ported here: which alternative a oneof takes, `Any` as YAML text, `type` as a string
// array, `items` as one schema, map fields as Named pairs in document order.
import { marshalYamlV3 } from '../../go/yaml-v3-marshal.ts';
import { OPENAPI_V2_MESSAGES, type OpenAPIV2Field } from '../../generated/openapi-v2-messages.ts';
import { WireWriter } from './wire-writer.ts';

type Json = Record<string, unknown>;
const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function messageOf(type: string) {
  const m = OPENAPI_V2_MESSAGES[type];
  if (!m) throw new Error(`openapi_v2: no message ${type}`);
  return m;
}

/** The alternative a oneof message takes for a value: the last reader that accepts it wins in gnostic. */
function oneofField(type: string, v: unknown): { field: number; type: string } | undefined {
  const fields = messageOf(type).fields;
  const pick = (n: number) => ({ field: n, type: fields.find((f) => f.n === n)!.type });
  const obj = isMap(v) ? v : undefined;
  switch (type) {
    case 'AdditionalPropertiesItem':
      return typeof v === 'boolean' ? pick(2) : obj ? pick(1) : undefined;
    case 'ParametersItem':
    case 'ResponseValue':
      return obj ? pick(typeof obj.$ref === 'string' ? 2 : 1) : undefined;
    case 'Parameter':
      return obj ? pick(obj.in === 'body' ? 1 : 2) : undefined;
    case 'NonBodyParameter': {
      const n = { header: 1, formData: 2, query: 3, path: 4 }[String(obj?.in)];
      return n ? pick(n) : undefined;
    }
    case 'SchemaItem':
      return obj ? pick(obj.type === 'file' ? 2 : 1) : undefined;
    case 'SecurityDefinitionsItem': {
      if (!obj) return undefined;
      if (obj.type === 'basic') return pick(1);
      if (obj.type === 'apiKey') return pick(2);
      const n = { implicit: 3, password: 4, application: 5, accessCode: 6 }[String(obj.flow)];
      return n ? pick(n) : undefined;
    }
  }
  throw new Error(`openapi_v2: oneof ${type} has no reader here`);
}

/** One value of a field; proto3 leaves out zero scalars, but not the elements of a repeated field. */
function writeValue(w: WireWriter, field: OpenAPIV2Field, v: unknown, element = false): void {
  switch (field.type) {
    case 'string':
      if (typeof v === 'string' && (v !== '' || element)) w.string(field.n, v);
      return;
    case 'bool':
      if (v === true) w.bool(field.n, true);
      return;
    case 'int64':
      if (typeof v === 'number' && v !== 0) w.int64(field.n, Math.trunc(v));
      return;
    case 'double':
      if (typeof v === 'number' && v !== 0) w.double(field.n, v);
      return;
    default:
      w.message(field.n, (nested) => writeMessage(nested, field.type, v));
  }
}

/** Writes `v` as message `type` (its fields, in field-number order). */
function writeMessage(w: WireWriter, type: string, v: unknown): void {
  switch (type) {
    case 'Any':
      w.string(2, marshalYamlV3(v));
      return;
    case 'TypeItem':
    case 'StringArray':
      for (const s of Array.isArray(v) ? v : [v]) w.string(1, String(s));
      return;
    case 'ItemsItem':
      if (isMap(v)) w.message(1, (nested) => writeMessage(nested, 'Schema', v));
      return;
  }
  const message = messageOf(type);
  if (message.oneof) {
    const alt = oneofField(type, v);
    if (!alt) return;
    // A oneof alternative has presence: a false boolean is written too.
    if (alt.type === 'bool') w.bool(alt.field, v === true);
    else w.message(alt.field, (nested) => writeMessage(nested, alt.type, v));
    return;
  }
  if (!isMap(v)) return;
  for (const field of [...message.fields].sort((a, b) => a.n - b.n)) {
    if (field.map) {
      const pattern = field.map.pattern === null ? undefined : new RegExp(field.map.pattern);
      const valueType = messageOf(field.type).fields.find((f) => f.name === 'value')!.type;
      for (const [name, item] of Object.entries(v)) {
        if (pattern && !pattern.test(name)) continue;
        w.message(field.n, (pair) => {
          pair.string(1, name);
          if (valueType === 'string') {
            if (typeof item === 'string' && item !== '') pair.string(2, item);
          } else pair.message(2, (nested) => writeMessage(nested, valueType, item));
        });
      }
      continue;
    }
    if (field.key === undefined || !(field.key in v)) continue;
    const value = v[field.key];
    if (field.repeated) for (const item of Array.isArray(value) ? value : []) writeValue(w, field, item, true);
    else writeValue(w, field, value);
  }
}

/** proto.Marshal(openapi_v2.ParseDocument(json)) of a swagger 2.0 document. */
export function swaggerToProtobuf(doc: unknown): Uint8Array {
  const w = new WireWriter();
  writeMessage(w, 'Document', doc);
  return w.finish();
}
