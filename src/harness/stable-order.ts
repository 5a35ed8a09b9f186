// The order of a normalised snapshot must not depend on random names: objects are sorted by
// apiVersion, kind, namespace and name, and two names generated from the same generateName
// (`web-x7k2p`, `web-b4n9q`) would swap places from run to run. Here they sort as `web-<suffix>`
// and then by their content with every uid and generated name anonymised, so the same test gives
// the same order (and so the same numbering) on every run. Objects whose content is the same too
// (the pods of one ReplicaSet) go by resourceVersion: a test's writes come in the same order on
// every run, so their revisions do too.
import { apiVersionOf } from '../apis/object.ts';
import { normalizeObject, Placeholders } from './normalize.ts';
import { presentCopy } from './object-ref.ts';
import type { SnapshotEntry } from './snapshot-entry.ts';

export function stableOrder(entries: readonly SnapshotEntry[]): SnapshotEntry[] {
  const anonymous = new Placeholders({ anonymous: true });
  for (const e of entries) anonymous.addGeneratedNames(e.object);
  const keyed = entries.map((entry) => {
    const meta = entry.object.metadata;
    const name = anonymous.name(meta.name);
    const key = [apiVersionOf(entry.type.group, entry.type.version), entry.type.kind, meta.namespace ?? '', name];
    return { entry, key, generated: name !== meta.name, content: undefined as string | undefined };
  });
  if (!keyed.some((k) => k.generated)) return [...entries];
  // Content is compared only between generated names that tie on the key (the sort is stable otherwise).
  const contentOf = (k: (typeof keyed)[number]) => (k.content ??= JSON.stringify(normalizeObject(presentCopy(k.entry.type, k.entry.object), anonymous)));
  keyed.sort((a, b) => compareKeys(a.key, b.key) || (a.generated && b.generated ? compareText(contentOf(a), contentOf(b)) || revisionOf(a.entry) - revisionOf(b.entry) : 0));
  return keyed.map((k) => k.entry);
}

const revisionOf = (entry: SnapshotEntry): number => Number(entry.object.metadata.resourceVersion ?? 0);

/** Orders two sort keys (apiVersion, kind, namespace, name) field by field. */
export function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareText(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
