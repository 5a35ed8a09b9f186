// What sigs.k8s.io/yaml YAMLToJSONStrict adds to a YAML body's decoding: go-yaml v2's
// UnmarshalStrict reports every key set twice in one mapping (the lenient decode keeps the last
// value), as one error: `yaml: unmarshal errors:\n  line 5: key "name" already set in map`.
import { EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, type Event, type ScalarEvent } from 'js-yaml';
import { goQuote } from '../errors/go-format.ts';

interface Frame {
  mapping: boolean;
  /** Keys seen so far in a mapping, by their Go `%#v` rendering (it tells "1" from 1). */
  keys: Set<string>;
  expectKey: boolean;
  key: string | undefined;
  /** For a collection that is a mapping value: the parent's key and the value's start offset. */
  asValueOf?: { parent: Frame; key: string; start: number };
}

/** The go-yaml v2 strict error for duplicate keys in a YAML document, or undefined when there are none. */
export function yamlDuplicateKeyError(text: string): string | undefined {
  let events: Event[];
  try {
    events = parseEvents(text, {});
  } catch {
    return undefined; // a syntax error is reported by the lenient decode already
  }
  const errors: string[] = [];
  const lineAt = (offset: number): number => {
    let line = 1;
    for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
    return line;
  };
  // setMapIndex runs after the value is decoded, so nested duplicates are reported first.
  const setMapIndex = (frame: Frame, key: string, valueStart: number) => {
    if (frame.keys.has(key)) errors.push(`line ${lineAt(valueStart)}: key ${key} already set in map`);
    else frame.keys.add(key);
  };
  const stack: Frame[] = [];
  for (const ev of events) {
    const top = stack[stack.length - 1];
    if (ev.type === EVENT_ID.POP) {
      const done = stack.pop();
      if (done?.asValueOf) setMapIndex(done.asValueOf.parent, done.asValueOf.key, done.asValueOf.start);
      continue;
    }
    if (ev.type === EVENT_ID.DOCUMENT) {
      stack.push({ mapping: false, keys: new Set(), expectKey: false, key: undefined });
      continue;
    }
    const isCollection = ev.type === EVENT_ID.MAPPING || ev.type === EVENT_ID.SEQUENCE;
    let asValueOf: Frame['asValueOf'];
    if (top?.mapping) {
      if (top.expectKey) {
        top.key = ev.type === EVENT_ID.SCALAR ? goKey(text, ev) : `<complex key>`;
        top.expectKey = false;
      } else {
        const start = eventStart(ev);
        if (isCollection) asValueOf = { parent: top, key: top.key!, start };
        else setMapIndex(top, top.key!, start);
        top.expectKey = true;
      }
    }
    if (isCollection) {
      const mapping = ev.type === EVENT_ID.MAPPING;
      const frame: Frame = { mapping, keys: new Set(), expectKey: mapping, key: undefined };
      if (asValueOf) frame.asValueOf = asValueOf;
      stack.push(frame);
    }
  }
  return errors.length ? `yaml: unmarshal errors:\n  ${errors.join('\n  ')}` : undefined;
}

function eventStart(ev: Event): number {
  if ('tagStart' in ev && ev.tagStart >= 0) return ev.tagStart;
  if ('anchorStart' in ev && ev.anchorStart >= 0) return ev.anchorStart;
  if (ev.type === EVENT_ID.SCALAR) return ev.valueStart;
  return 'start' in ev ? ev.start : 0;
}

// The key as `%#v` prints the interface{} go-yaml resolved it to: plain integers and booleans
// unquoted, everything else a Go-quoted string.
function goKey(text: string, ev: ScalarEvent): string {
  const value = getScalarValue(text, ev);
  if (ev.style === SCALAR_STYLE.PLAIN) {
    if (/^[-+]?[0-9]+$/.test(value)) return String(Number(value));
    if (/^(true|false)$/i.test(value)) return value.toLowerCase();
  }
  return goQuote(value);
}
