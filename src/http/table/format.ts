// Small formatters the printers share: labels.FormatLabels and the container name/image cells
// (label selectors print with selectors/format-label-selector.ts).
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

/** layoutContainerCells: names and images joined by commas. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = arr(obj(podSpec).containers).map(obj);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}
