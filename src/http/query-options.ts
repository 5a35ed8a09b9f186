// Query parameters decoded into registry options. Decoding failures are 400s with the
// parameter codec's text; the registry validates the decoded values.
import { badRequest } from '../errors/status-error.ts';
import type { DeleteOptions, GetOptions, ListOptions, WriteOptions } from '../apis/options.ts';
import type { WatchStreamOptions } from './watch-stream.ts';

/** strconv.ParseBool, which the parameter codec uses. */
function parseBool(value: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  throw badRequest(`strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

function parseInt64(value: string): number {
  if (!/^[+-]?\d+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
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

export function isWatchRequest(q: URLSearchParams): boolean {
  const v = q.get('watch');
  return v !== null && v !== '' && parseBool(v);
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
