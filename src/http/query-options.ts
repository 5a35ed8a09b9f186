// Query parameters decoded into registry options. Decoding failures are 400s with the
// parameter codec's text; the registry validates the decoded values.
import { goQuote } from '../errors/go-format.ts';
import { badRequest } from '../errors/status-error.ts';
import { parseInt64 as goParseInt64 } from '../selectors/go-strings.ts';
import type { DeleteOptions, GetOptions, ListOptions, WriteOptions } from '../apis/options.ts';
import type { WatchStreamOptions } from './watch-stream.ts';
import type { PodLogOptions } from '../registry/subresources/pod-connect.ts';
import { goParseTime, RFC3339 } from '../go/time-parse.ts';

/**
 * runtime.Convert_Slice_string_To_bool (and _Pointer_bool), which the parameter codec uses for
 * every boolean parameter: only `0` and `false` (any case) are false; anything else, `maybe` and
 * the empty string included, is true.
 */
function parseBool(value: string): boolean {
  return !(value === '0' || value.toLowerCase() === 'false');
}

/** runtime.Convert_Slice_string_To_int64: strconv.ParseInt(s, 10, 64), whose error the handlers answer as a 400. */
function parseInt64(value: string): number {
  const n = goParseInt64(value);
  if (n !== undefined) return Number(n);
  const reason = /^[+-]?[0-9]+$/.test(value) ? 'value out of range' : 'invalid syntax';
  throw badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: ${reason}`);
}

const optional = <T>(q: URLSearchParams, name: string, parse: (v: string) => T): T | undefined => {
  const v = q.get(name);
  return v === null ? undefined : parse(v);
};

const dryRunOf = (q: URLSearchParams): string[] | undefined => {
  const all = q.getAll('dryRun');
  return all.length ? all : undefined;
};

export function getOptionsFrom(q: URLSearchParams): GetOptions {
  return { resourceVersion: q.get('resourceVersion') ?? undefined };
}

export function listOptionsFrom(q: URLSearchParams): ListOptions {
  return {
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    limit: optional(q, 'limit', parseInt64),
    continue: q.get('continue') ?? undefined,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
    sendInitialEvents: optional(q, 'sendInitialEvents', parseBool),
  };
}

/** RequestInfoFactory: a collection GET is a watch when `watch` decodes true (`?watch=` and `?watch=maybe` do). */
export function isWatchRequest(q: URLSearchParams): boolean {
  const v = q.get('watch');
  return v !== null && parseBool(v);
}

export function writeOptionsFrom(q: URLSearchParams): WriteOptions {
  return {
    dryRun: dryRunOf(q),
    fieldManager: q.get('fieldManager') ?? undefined,
    fieldValidation: q.get('fieldValidation') ?? undefined,
  };
}

/** PatchOptions: the write options plus `force`, and the User-Agent that names Update managers. */
export function patchOptionsFrom(q: URLSearchParams, userAgent: string | null): WriteOptions {
  return { ...writeOptionsFrom(q), force: optional(q, 'force', parseBool), userAgent: userAgent ?? undefined };
}

/** DeleteOptions from a JSON body when one is sent, else from the query. */
export function deleteOptionsFrom(q: URLSearchParams, body: Record<string, unknown> | undefined): DeleteOptions {
  if (body) {
    const pre = body.preconditions as { uid?: string; resourceVersion?: string } | undefined;
    return {
      dryRun: Array.isArray(body.dryRun) ? (body.dryRun as string[]) : undefined,
      gracePeriodSeconds: typeof body.gracePeriodSeconds === 'number' ? body.gracePeriodSeconds : undefined,
      propagationPolicy: typeof body.propagationPolicy === 'string' ? body.propagationPolicy : undefined,
      orphanDependents: typeof body.orphanDependents === 'boolean' ? body.orphanDependents : undefined,
      preconditions: pre ? { uid: pre.uid ?? undefined, resourceVersion: pre.resourceVersion ?? undefined } : undefined,
    };
  }
  return {
    dryRun: dryRunOf(q),
    gracePeriodSeconds: optional(q, 'gracePeriodSeconds', parseInt64),
    propagationPolicy: q.get('propagationPolicy') ?? undefined,
    orphanDependents: optional(q, 'orphanDependents', parseBool),
  };
}

export function watchOptionsFrom(q: URLSearchParams): WatchStreamOptions {
  return {
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
    sendInitialEvents: optional(q, 'sendInitialEvents', parseBool),
    allowWatchBookmarks: optional(q, 'allowWatchBookmarks', parseBool),
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    timeoutSeconds: optional(q, 'timeoutSeconds', parseInt64),
  };
}

/** time.Time{}: what an empty (or `null`) metav1.Time query parameter decodes to. */
const GO_ZERO_TIME_MS = -62_135_596_800_000; // 0001-01-01T00:00:00Z

/** metav1.Time.UnmarshalQueryParameter: RFC 3339; empty or `null` is the zero time. A bad value is a 400 with time.Parse's text. */
function parseQueryTime(value: string): number {
  if (value === '' || value === 'null') return GO_ZERO_TIME_MS;
  const parsed = goParseTime(RFC3339, value);
  if (!parsed.ok) throw badRequest(parsed.error);
  return parsed.epochMs;
}

/** PodLogOptions as the parameter codec decodes them (booleans as every boolean parameter, the rest strictly). */
export function podLogOptionsFrom(q: URLSearchParams): PodLogOptions {
  return {
    follow: optional(q, 'follow', parseBool),
    previous: optional(q, 'previous', parseBool),
    timestamps: optional(q, 'timestamps', parseBool),
    tailLines: optional(q, 'tailLines', parseInt64),
    limitBytes: optional(q, 'limitBytes', parseInt64),
    sinceSeconds: optional(q, 'sinceSeconds', parseInt64),
    sinceTime: optional(q, 'sinceTime', parseQueryTime),
    stream: q.get('stream') ?? undefined,
  };
}
