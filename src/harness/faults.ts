// cluster.faults: make the cluster fail the way a real apiserver fails — declarative rules
// (verb/resource/namespace/name, how often, after how many) or a function hook — and end open
// watches. Every error is what kube-apiserver sends for that failure.
import { alreadyExists, conflict, OPTIMISTIC_LOCK_MESSAGE, plainServerError, StatusError, timeout, type Status } from '../errors/status-error.ts';
import { errorResponse } from '../http/responses.ts';
import { sentResponse } from '../http/sent-bodies.ts';
import { matchesRequest, type RequestAttributes, type RequestMatch } from './request-attributes.ts';
import { parseBody } from './request-log.ts';

/**
 * What a fault answers:
 * - `409`: a create gets `AlreadyExists`, anything else the optimistic-lock `Conflict`
 *   ("the object has been modified; please apply your changes to the latest version and try again");
 * - `500`: what an etcd timeout surfaces as (`etcdserver: request timed out`, no reason);
 * - `429`: what API Priority and Fairness answers under load: plain text
 *   `Too many requests, please try again later.` with `Retry-After` (not a Status body);
 * - `'timeout'`: the 504 `Timeout` Status of a request that ran out of time (the texts of the
 *   timeout filter for reads, of the request finisher for writes);
 * - a `Status` (code, reason, message, details): sent as is, `Retry-After` from `details.retryAfterSeconds`.
 */
export type FaultError = 409 | 500 | 429 | 'timeout' | FaultStatus;

/** A Status to answer with; `kind`, `apiVersion`, `metadata` and `status` are filled in. */
export type FaultStatus = Partial<Status> & { code: number };

/** A declarative fault: the requests it matches (see RequestMatch), what they get, and how often. */
export interface FaultRule extends RequestMatch {
  /** The error to answer with. May be omitted when `delayMs` is given (the request then only runs late). */
  error?: FaultError;
  /** Wait this long (real time) before answering. */
  delayMs?: number;
  /** How many times the rule fires; every matching request when omitted. */
  times?: number;
  /** Let this many matching requests through before the rule starts firing. Default 0. */
  after?: number;
  /** `Retry-After` seconds of a `429`. Default 1 (APF's minimum). */
  retryAfterSeconds?: number;
}

/** What a hook sees of a request. */
export interface FaultRequest extends RequestAttributes {
  /** The request's headers (a copy). */
  headers: Headers;
  /** The request body, parsed (JSON or YAML), or undefined. */
  body(): Promise<unknown>;
}

/** What a hook decides: an error and/or a delay (as in a rule), a Response of its own, or undefined to let the request through. */
export type FaultAction = Pick<FaultRule, 'error' | 'delayMs' | 'retryAfterSeconds'>;

/** A function asked about every request (after the rules added before it); see FaultAction. */
export type FaultHook = (request: FaultRequest) => FaultAction | Response | undefined | Promise<FaultAction | Response | undefined>;

/** A rule or hook that was added; remove() takes it out again. */
export interface Fault {
  /** How many requests it has answered or delayed so far. */
  readonly hits: number;
  /** Takes the rule or hook out; requests after this are not asked about. */
  remove(): void;
}

/** `cluster.faults`. */
export interface Faults {
  /** Adds a rule (or a hook, asked for every request); rules are tried in the order added, the first that fires wins. */
  add(rule: FaultRule | FaultHook): Fault;
  /** Removes every rule and hook. */
  clear(): void;
  /** Ends every open watch stream now, as an apiserver restart or a dropped connection does; answers how many. */
  dropWatches(): number;
}

/** What the interceptor should do with one request. */
export interface FaultDecision {
  delayMs: number;
  response: Response | undefined;
}

interface ActiveFault {
  handle: Fault & { hits: number };
  decide(attrs: RequestAttributes, request: Request): Promise<FaultAction | Response | undefined>;
}

export class FaultInjector implements Faults {
  private faults: ActiveFault[] = [];
  private readonly closeWatches: () => number;

  constructor(closeWatches: () => number) {
    this.closeWatches = closeWatches;
  }

  get active(): boolean {
    return this.faults.length > 0;
  }

  add(rule: FaultRule | FaultHook): Fault {
    const handle = { hits: 0, remove: () => (this.faults = this.faults.filter((f) => f !== active)) };
    const active: ActiveFault = { handle, decide: typeof rule === 'function' ? hookDecider(rule) : ruleDecider(checkRule(rule)) };
    this.faults.push(active);
    return handle;
  }

  clear(): void {
    this.faults = [];
  }

  dropWatches(): number {
    return this.closeWatches();
  }

  /** Asks the faults in order; the first that acts decides. */
  async decide(attrs: RequestAttributes, request: Request): Promise<FaultDecision | undefined> {
    for (const fault of [...this.faults]) {
      const action = await fault.decide(attrs, request);
      if (!action) continue;
      fault.handle.hits++;
      if (action instanceof Response) return { delayMs: 0, response: action };
      return { delayMs: action.delayMs ?? 0, response: action.error === undefined ? undefined : await faultResponse(action, attrs, request) };
    }
    return undefined;
  }
}

function checkRule(rule: FaultRule): FaultRule {
  if (rule.error === undefined && rule.delayMs === undefined) throw new TypeError('kubefake: a fault rule needs an error, a delayMs, or both');
  checkAction(rule);
  for (const key of ['times', 'after'] as const) checkCount(key, rule[key]);
  return { ...rule };
}

/** The parts a rule and a hook's answer share. */
function checkAction(action: FaultAction): void {
  checkCount('delayMs', action.delayMs);
  checkCount('retryAfterSeconds', action.retryAfterSeconds);
  const e = action.error;
  if (e !== undefined && e !== 409 && e !== 500 && e !== 429 && e !== 'timeout' && !(typeof e === 'object' && e !== null && Number.isInteger(e.code))) {
    throw new TypeError(`kubefake: fault error must be 409, 500, 429, 'timeout' or a Status with a code, got ${JSON.stringify(e)}`);
  }
}

function checkCount(key: string, value: number | undefined): void {
  if (value !== undefined && !(typeof value === 'number' && value >= 0 && !Number.isNaN(value))) {
    throw new TypeError(`kubefake: fault rule ${key} must be a non-negative number, got ${String(value)}`);
  }
}

function ruleDecider(rule: FaultRule): ActiveFault['decide'] {
  let seen = 0;
  let fired = 0;
  return async (attrs) => {
    if (!matchesRequest(attrs, rule)) return undefined;
    seen++;
    if (seen <= (rule.after ?? 0) || fired >= (rule.times ?? Infinity)) return undefined;
    fired++;
    return rule;
  };
}

function hookDecider(hook: FaultHook): ActiveFault['decide'] {
  return async (attrs, request) => {
    try {
      const result = await hook({ ...attrs, headers: new Headers(request.headers), body: () => readBody(request) });
      if (result === undefined || result instanceof Response) return result;
      checkAction(result);
      return result.error === undefined && result.delayMs === undefined ? undefined : result;
    } catch (err) {
      // A hook that throws (or answers nonsense) is a bug in the test: the request still gets a
      // Status, a 500 as the apiserver answers a handler panic, naming what went wrong.
      return { error: hookFailure(err) };
    }
  };
}

function hookFailure(err: unknown): FaultStatus {
  const message = `Internal error occurred: kubefake fault hook failed: ${err instanceof Error ? err.message : String(err)}`;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 };
}

async function faultResponse(action: FaultAction, attrs: RequestAttributes, request: Request): Promise<Response> {
  const error = action.error!;
  if (error === 429) return tooManyRequestsResponse(action.retryAfterSeconds ?? 1);
  return errorResponse(await faultStatus(error, attrs, request));
}

/** maxinflight/priority-and-fairness `tooManyRequests`: http.Error with a Retry-After header. */
function tooManyRequestsResponse(retryAfterSeconds: number): Response {
  return sentResponse('Too many requests, please try again later.\n', {
    status: 429,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'retry-after': String(Math.round(retryAfterSeconds)) },
  });
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

async function faultStatus(error: Exclude<FaultError, 429>, attrs: RequestAttributes, request: Request): Promise<StatusError> {
  const gr = { group: attrs.group ?? '', resource: attrs.resource ?? '' };
  switch (error) {
    case 409:
      if (attrs.verb === 'create') return alreadyExists(gr, await createdName(request));
      return conflict(gr, attrs.name ?? '', OPTIMISTIC_LOCK_MESSAGE);
    case 500:
      // An etcd error passes through the registry unconverted: ErrorToAPIStatus makes it a 500 with no reason.
      return plainServerError('etcdserver: request timed out');
    case 'timeout':
      return WRITE_VERBS.has(attrs.verb)
        ? timeout('request did not complete within requested timeout - context deadline exceeded', 0)
        : timeout('request did not complete within the allotted timeout', 0);
    default:
      return new StatusError(error);
  }
}

/** metadata.name of a create's body (AlreadyExists names the object). */
async function createdName(request: Request): Promise<string> {
  const body = await readBody(request);
  const name = (body as { metadata?: { name?: unknown } } | undefined)?.metadata?.name;
  return typeof name === 'string' ? name : '';
}

async function readBody(request: Request): Promise<unknown> {
  if (!request.body) return undefined;
  return parseBody(request.headers.get('content-type'), await request.clone().text());
}
