// Small formatters the printers share: labels.FormatLabels, metav1 label selectors as
// LabelSelectorAsSelector(...).String() prints them, and the container name/image cells.
import { isPlainObject } from '../../apis/object.ts';

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
export const obj = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Go's sort order for strings (bytes), which sets.String and sort.Strings use. */
export function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** labels.FormatLabels: `k=v` sorted by key, `<none>` when empty. */
export function formatLabels(labels: unknown): string {
  const m = obj(labels);
  const keys = Object.keys(m).sort(byteCompare);
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${str(m[k])}`).join(',');
}

/**
 * metav1.LabelSelectorAsSelector(sel).String(): nil and empty selectors print "", requirements
 * are sorted by key, set values sorted; an unknown operator is an error, printed `<invalid>`.
 */
export function formatLabelSelector(selector: unknown): string {
  if (!isPlainObject(selector)) return '';
  const reqs: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(obj(selector.matchLabels))) reqs.push({ key: k, text: `${k}=${str(v)}` });
  for (const e of arr(selector.matchExpressions)) {
    const expr = obj(e);
    const key = str(expr.key);
    const values = arr(expr.values).map(str).sort(byteCompare).join(',');
    switch (expr.operator) {
      case 'In':
        reqs.push({ key, text: `${key} in (${values})` });
        break;
      case 'NotIn':
        reqs.push({ key, text: `${key} notin (${values})` });
        break;
      case 'Exists':
        reqs.push({ key, text: key });
        break;
      case 'DoesNotExist':
        reqs.push({ key, text: `!${key}` });
        break;
      default:
        return '<invalid>';
    }
  }
  // Selector.Add sorts by key; for the few requirements a selector has Go's sort is stable.
  return reqs
    .sort((a, b) => byteCompare(a.key, b.key))
    .map((r) => r.text)
    .join(',');
}

/** layoutContainerCells: names and images joined by commas. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = arr(obj(podSpec).containers).map(obj);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}
