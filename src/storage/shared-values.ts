// Deep-freezes what the store keeps and shares equal parts between stored objects. 100,000
// ConfigMaps written by one client carry the same kind, namespace, label values and, above all,
// the same managedFields field sets (a dozen small objects each); sharing one frozen copy of each
// keeps the store's heap within a small multiple of the objects' JSON size. Stored values are
// frozen, so sharing them is invisible to readers.

/** How many strings and subtrees are remembered before the tables start afresh (bounds memory under churn). */
const STRING_TABLE_LIMIT = 20_000;
const TREE_TABLE_LIMIT = 10_000;
/** Only short strings are worth a table entry (names, kinds, label values, timestamps, uids). */
const MAX_SHARED_STRING = 64;
/** Only small subtrees are shared (field sets, label maps): their JSON is their table key. */
const MAX_SHARED_TREE = 256;

export class SharedValues {
  private strings = new Map<string, string>();
  private trees = new Map<string, object>();

  /** `value` frozen in place (its unfrozen parts; frozen parts are already stored), with equal parts shared. */
  freeze<T>(value: T): T {
    return this.visit(value).value as T;
  }

  private string(s: string): string {
    if (s.length > MAX_SHARED_STRING) return s;
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    if (this.strings.size >= STRING_TABLE_LIMIT) this.strings = new Map();
    this.strings.set(s, s);
    return s;
  }

  /** The frozen value and, when it is small and made of primitives and plain objects, its JSON (the sharing key). */
  private visit(value: unknown): { value: unknown; key: string | undefined } {
    if (typeof value === 'string') {
      const s = this.string(value);
      return { value: s, key: s.length <= MAX_SHARED_TREE ? JSON.stringify(s) : undefined };
    }
    if (value === null || typeof value !== 'object') return { value, key: value === undefined ? undefined : JSON.stringify(value) };
    if (Object.isFrozen(value)) return { value, key: undefined };
    if (Array.isArray(value)) {
      // A copy of exactly its length: an array grown by push() keeps spare capacity (17 slots
      // for one managedFields entry) that freezing does not give back.
      const copy = value.slice();
      for (let i = 0; i < copy.length; i++) copy[i] = this.visit(copy[i]).value;
      return { value: Object.freeze(copy), key: undefined };
    }
    const record = value as Record<string, unknown>;
    let key: string | undefined = '{';
    for (const k of Object.keys(record)) {
      const child = this.visit(record[k]);
      record[k] = child.value;
      if (key !== undefined) {
        key = child.key === undefined ? undefined : `${key.length > 1 ? `${key},` : key}${JSON.stringify(k)}:${child.key}`;
        if (key !== undefined && key.length > MAX_SHARED_TREE) key = undefined;
      }
    }
    Object.freeze(record);
    if (key === undefined) return { value: record, key };
    key += '}';
    const known = this.trees.get(key);
    if (known !== undefined) return { value: known, key };
    if (this.trees.size >= TREE_TABLE_LIMIT) this.trees = new Map();
    this.trees.set(key, record);
    return { value: record, key };
  }
}
