// Content negotiation: which representation a client asked for (Accept) and sent (Content-Type).
import { parseMediaType } from '../go/mime.ts';

export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

export type OutputFormat = 'json' | 'yaml';

export const SERVED_MEDIA_TYPES = ['application/json', 'application/yaml'];

export function parseMediaRange(text: string): MediaRange | undefined {
  const [essence, ...rawParams] = text.split(';').map((s) => s.trim());
  const [type, subtype] = (essence ?? '').toLowerCase().split('/');
  if (!type || !subtype) return undefined;
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const key = p.slice(0, eq).trim().toLowerCase();
    const value = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
    if (key === 'q') q = Number(value);
    else params[key] = value;
  }
  return { type, subtype, params, q: Number.isFinite(q) ? q : 0 };
}

export function parseAccept(header: string | null): MediaRange[] {
  if (!header || !header.trim()) return [];
  return header
    .split(',')
    .map(parseMediaRange)
    .filter((r): r is MediaRange => !!r && r.q > 0);
}

/**
 * The plain object format a client accepts, or undefined if none; ranges that ask for a
 * transformed representation (`as=Table`, ...) are matched elsewhere.
 */
export function negotiateObjectFormat(ranges: MediaRange[]): OutputFormat | undefined {
  if (ranges.length === 0) return 'json';
  const ordered = [...ranges].sort((a, b) => b.q - a.q);
  for (const r of ordered) {
    if (r.params.as) continue;
    if (r.type === '*' && r.subtype === '*') return 'json';
    if (r.type !== 'application') continue;
    if (r.subtype === '*' || r.subtype === 'json') return 'json';
    if (r.subtype === 'yaml') return 'yaml';
  }
  return undefined;
}

/**
 * The media type (`type/subtype`, lower-cased, without parameters) of a Content-Type header;
 * undefined when there is none, which the decoders read as the first served type (JSON), as
 * NegotiateInputSerializerForMediaType does. A header Go's mime.ParseMediaType refuses (`;;;`) is
 * returned whole: it matches no media type, so it is answered 415.
 */
export function contentTypeEssence(header: string | null): string | undefined {
  if (!header) return undefined;
  return parseMediaType(header)?.mediaType ?? header;
}
