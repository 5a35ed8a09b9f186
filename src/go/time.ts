// metav1.Time on the wire.

/** The second formatTimestamp last formatted, and its text: writes stamp the same second thousands of times. */
let lastSecond = NaN;
let lastText = '';

/** RFC 3339 in UTC with seconds precision, as metav1.Time serialises. */
export function formatTimestamp(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second === lastSecond) return lastText;
  const text = new Date(second * 1000).toISOString().replace('.000Z', 'Z');
  lastSecond = second;
  lastText = text;
  return text;
}

/** RFC3339Micro in UTC (`2006-01-02T15:04:05.000000Z07:00`), as metav1.MicroTime serialises. */
export function formatMicroTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** time's daysIn(m, year): the days of a month, February by the Gregorian leap rule. */
export function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
