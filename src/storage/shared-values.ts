// Deep-freezes what the store keeps and shares equal parts between stored objects. 100,000
// ConfigMaps written by one client carry the same kind, namespace, label values and, above all,
// the same managedFields field sets (a dozen small objects each); sharing one frozen copy of each
// keeps the store's heap within a small multiple of the objects' JSON size. Stored values are
// frozen, so sharing them is invisible to readers.

/** How many primitives and subtrees are remembered before the tables start afresh (bounds memory under churn). */
const ATOM_TABLE_LIMIT = 20_000;
const TREE_TABLE_LIMIT = 10_000;
/** Only short strings are shared as values (names, kinds, label values, timestamps, uids). */
const MAX_SHARED_STRING = 64;
/** Longer strings do not make a subtree worth sharing (a message, a certificate, a script). */
const MAX_KEYED_STRING = 256;
/** Subtrees of more members than this are not shared (their key would cost more than it saves). */
const MAX_SHARED_MEMBERS = 32;
/** A subtree's id is offset by this in its parent's key, apart from the primitives' ids below it. */
const TREE_ID_BASE = 0x8000;

export class SharedValues {
  /** Primitives (property names, strings, numbers, booleans, null) to their id (1-based), strings to their shared instance. */
  private atoms = new Map<unknown, number>();
  private strings: string[] = [''];
  /** A subtree's key (its members' name and value ids, one UTF-16 unit each) to its shared frozen copy and id. */
  private trees = new Map<string, { value: object; id: number }>();

  /** The id of what visit() last returned when it can be part of a parent's key (0: it cannot). */
  private lastId = 0;

  /** `value` frozen in place (its unfrozen parts; frozen parts are already stored), with equal parts shared. */
  freeze<T>(value: T): T {
    // Afresh together, and only between objects: a subtree's key names primitives by id.
    if (this.atoms.size >= ATOM_TABLE_LIMIT || this.trees.size >= TREE_TABLE_LIMIT) {
      this.atoms = new Map();
      this.strings = [''];
      this.trees = new Map();
    }
    return this.visit(value) as T;
  }

  /** The id of a primitive (the table may outgrow its limit by one object's worth; freeze() starts afresh). */
  private atom(v: unknown): number {
    const known = this.atoms.get(v);
    if (known !== undefined) return known;
    const id = this.atoms.size + 1;
    if (id >= TREE_ID_BASE) return 0;
    this.atoms.set(v, id);
    if (typeof v === 'string') this.strings[id] = v;
    return id;
  }

  /**
   * The frozen value; sets lastId to the id of its shared copy when it has one. Keys are strings
   * of small integer ids, one per member name and value, built from the children's ids: no JSON
   * is written, and this runs on every stored write.
   */
  private visit(value: unknown): unknown {
    if (typeof value === 'string') {
      if (value.length > MAX_KEYED_STRING) {
        this.lastId = 0;
        return value;
      }
      const id = this.atom(value);
      this.lastId = id;
      return id !== 0 && value.length <= MAX_SHARED_STRING ? this.strings[id] : value;
    }
    if (value === null || typeof value !== 'object') {
      this.lastId = value === undefined ? 0 : this.atom(value);
      return value;
    }
    if (Object.isFrozen(value)) {
      this.lastId = 0;
      return value;
    }
    if (Array.isArray(value)) {
      // A copy of exactly its length: an array grown by push() keeps spare capacity (17 slots
      // for one managedFields entry) that freezing does not give back.
      const copy = value.slice();
      for (let i = 0; i < copy.length; i++) copy[i] = this.visit(copy[i]);
      this.lastId = 0;
      return Object.freeze(copy);
    }
    const record = value as Record<string, unknown>;
    const names = Object.keys(record);
    let key: string | undefined = names.length <= MAX_SHARED_MEMBERS ? '' : undefined;
    for (const k of names) {
      record[k] = this.visit(record[k]);
      if (key !== undefined) {
        const child = this.lastId;
        const name = child === 0 ? 0 : this.atom(k);
        key = name === 0 ? undefined : key + String.fromCharCode(name, child);
      }
    }
    Object.freeze(record);
    this.lastId = 0;
    if (key === undefined) return record;
    const known = this.trees.get(key);
    if (known !== undefined) {
      this.lastId = known.id;
      return known.value;
    }
    const id = TREE_ID_BASE + this.trees.size + 1;
    if (id > 0xffff) return record;
    this.trees.set(key, { value: record, id });
    this.lastId = id;
    return record;
  }
}
