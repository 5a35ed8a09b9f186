// The completion indexes of an Indexed Job as ordered intervals (pkg/controller/job/
// indexed_job_utils.go orderedIntervals): parsed from and printed to the status text
// ("0-2,4,6,7"), merged with new indexes, counted and searched without expanding them.

export interface Interval {
  first: number;
  last: number;
}

/**
 * parseIndexesFromString: intervals of the text below `completions`; a part that does not parse is
 * skipped, an interval reaching past the end is cut, and adjacent intervals are joined.
 */
export function parseIndexes(text: string | undefined, completions: number): Interval[] {
  const result: Interval[] = [];
  if (!text) return result;
  for (const part of text.split(',')) {
    const limits = part.split('-');
    const first = goAtoi(limits[0]!);
    if (first === undefined) continue;
    if (first >= completions) break;
    let last = first;
    if (limits.length > 1) {
      const parsed = goAtoi(limits[1]!);
      if (parsed === undefined) continue;
      last = Math.min(parsed, completions - 1);
    }
    const previous = result.at(-1);
    if (previous && previous.last === first - 1) previous.last = last;
    else result.push({ first, last });
  }
  return result;
}

/** strconv.Atoi: an optional sign and decimal digits, nothing else. */
function goAtoi(text: string): number | undefined {
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

/** withOrderedIndexes/merge: the intervals with more intervals (or single indexes) added, overlapping and adjacent ones joined. */
export function mergeIndexes(intervals: readonly Interval[], more: readonly Interval[] | readonly number[]): Interval[] {
  const added: Interval[] = more.map((m) => (typeof m === 'number' ? { first: m, last: m } : { ...m }));
  const all = [...intervals.map((i) => ({ ...i })), ...added].sort((a, b) => a.first - b.first);
  const result: Interval[] = [];
  for (const next of all) {
    const last = result.at(-1);
    if (!last || next.first > last.last + 1) result.push(next);
    else if (last.last < next.last) last.last = next.last;
  }
  return result;
}

/** How many indexes the intervals hold. */
export const countIndexes = (intervals: readonly Interval[]): number => intervals.reduce((n, i) => n + i.last - i.first + 1, 0);

export const hasIndex = (intervals: readonly Interval[], index: number): boolean => intervals.some((i) => i.first <= index && index <= i.last);

/** orderedIntervals.String(): runs of three or more as `a-b`, a pair as `a,b`. */
export function formatIntervals(intervals: readonly Interval[]): string {
  return intervals.map((i) => (i.last === i.first ? `${i.first}` : i.last === i.first + 1 ? `${i.first},${i.last}` : `${i.first}-${i.last}`)).join(',');
}
