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

  /** The JSON of what visit() last returned, when asked for and small and plain (the sharing key of trees). */
  private lastKey: string | undefined;

  /** `value` frozen in place (its unfrozen parts; frozen parts are already stored), with equal parts shared. */
  freeze<T>(value: T): T {
    return this.visit(value, false) as T;
  }

  private string(s: string): string {
    if (s.length > MAX_SHARED_STRING) return s;
    const known = this.strings.get(s);
    if (known !== undefined) return known;
    if (this.strings.size >= STRING_TABLE_LIMIT) this.strings = new Map();
    this.strings.set(s, s);
    return s;
  }

  /**
   * The frozen value; sets lastKey to its JSON when it is small and made of primitives and plain
   * objects. A leaf's key is only built when the caller still can use it (`wantKey`), and no result
   * object is allocated per node: this runs on every stored write.
   */
  private visit(value: unknown, wantKey: boolean): unknown {
    if (typeof value === 'string') {
      const s = this.string(value);
      this.lastKey = wantKey && s.length <= MAX_SHARED_TREE ? JSON.stringify(s) : undefined;
      return s;
    }
    if (value === null || typeof value !== 'object') {
      this.lastKey = wantKey && value !== undefined ? JSON.stringify(value) : undefined;
      return value;
    }
    if (Object.isFrozen(value)) {
      this.lastKey = undefined;
      return value;
    }
    if (Array.isArray(value)) {
      // A copy of exactly its length: an array grown by push() keeps spare capacity (17 slots
      // for one managedFields entry) that freezing does not give back.
      const copy = value.slice();
      for (let i = 0; i < copy.length; i++) copy[i] = this.visit(copy[i], false);
      this.lastKey = undefined;
      return Object.freeze(copy);
    }
    const record = value as Record<string, unknown>;
    // An object's own key is always built (it is what shares it), from its children's while short.
    let key: string | undefined = '{';
    for (const k of Object.keys(record)) {
      record[k] = this.visit(record[k], key !== undefined);
      if (key !== undefined) {
        const child = this.lastKey;
        key = child === undefined ? undefined : `${key.length > 1 ? `${key},` : key}${JSON.stringify(k)}:${child}`;
        if (key !== undefined && key.length > MAX_SHARED_TREE) key = undefined;
      }
    }
    Object.freeze(record);
    if (key === undefined) {
      this.lastKey = undefined;
      return record;
    }
    key += '}';
    this.lastKey = key;
    const known = this.trees.get(key);
    if (known !== undefined) return known;
    if (this.trees.size >= TREE_TABLE_LIMIT) this.trees = new Map();
    this.trees.set(key, record);
    return record;
  }
}
