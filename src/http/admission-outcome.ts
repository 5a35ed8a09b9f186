// What admission left on a request (its warnings and audit annotations), kept beside the Request
// as request-user.ts keeps its user: the handler gives the registry an observer in the write
// options, the registry tells it of each admission run, and the plugins fill those in place. The
// error response reads the warnings (the real server's warning recorder sends them whatever the
// answer: endpoints/filters/warning.go), the request log the audit annotations (keyed as the
// audit event has them).
import type { AdmissionObserver, UserInfo } from '../apis/options.ts';
import { userOfRequest } from './request-user.ts';

type Outcome = Parameters<AdmissionObserver>[0];

const outcomes = new WeakMap<Request, Outcome[]>();

/** The observer to put in the write options of `request`. */
function admissionObserverFor(request: Request): AdmissionObserver {
  return (outcome) => {
    let list = outcomes.get(request);
    if (!list) outcomes.set(request, (list = []));
    list.push(outcome);
  };
}

/**
 * What admission reads of `request` and tells it back, for the options of any write it serves:
 * the authenticated user (admission's userInfo) and the observer of its outcome.
 */
export function admissionContextOf(request: Request): { user: UserInfo | undefined; observeAdmission: AdmissionObserver } {
  return { user: userOfRequest(request), observeAdmission: admissionObserverFor(request) };
}

/** Every warning admission added while serving `request`, in order (the response drops repeats). */
export function admissionWarningsOf(request: Request): string[] {
  return (outcomes.get(request) ?? []).flatMap((o) => o.warnings);
}

/**
 * The audit annotations admission added while serving `request`; a key keeps its first value, as
 * audit.AddAuditAnnotation refuses to overwrite one (a retried update runs admission again).
 */
export function auditAnnotationsOf(request: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of outcomes.get(request) ?? []) for (const [k, v] of Object.entries(o.auditAnnotations)) if (!(k in out)) out[k] = v;
  return out;
}
