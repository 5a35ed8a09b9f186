// metav1.Time on the wire.

/** RFC 3339 in UTC with seconds precision, as metav1.Time serialises. */
export function formatTimestamp(date: Date): string {
  return new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
