// time.LoadLocation's verdict on a zone name (Go's time/zoneinfo.go, with the tzdata the apiserver
// embeds). The zone database is the one ICU carries in Node (Intl), which holds the same IANA
// names and links; Go looks a name up as a file, so the match is case-sensitive where Intl's is not.

let supported: Set<string> | undefined;

/** The error time.LoadLocation(name) returns, or undefined when the zone loads. */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name';
  return knownZone(name) ? undefined : `unknown time zone ${name}`;
}

function knownZone(name: string): boolean {
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  supported ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (canonical === name || supported.has(name)) return true;
  // A link (US/Eastern, Etc/GMT+5): accepted by Intl whatever its case, by Go only as spelt in the
  // database, where every name part starts with a capital letter.
  return name.split('/').every((part) => /^[A-Z]/.test(part));
}
