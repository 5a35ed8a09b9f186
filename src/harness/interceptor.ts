// Sits in front of the API handler (both transports and cluster.handle() go through it): applies
// faults and records requests. Open watch streams are the handler's own (ServedWatches).
import type { FaultInjector } from './faults.ts';
import { requestAttributes, type RequestAttributes } from './request-attributes.ts';
import type { RequestRecorder } from './request-log.ts';

export interface InterceptorParts {
  faults: FaultInjector;
  requests: RequestRecorder;
}

export function intercept(handle: (request: Request) => Promise<Response>, parts: InterceptorParts): (request: Request) => Promise<Response> {
  const { faults, requests } = parts;
  return async (request) => {
    const attrs = requestAttributes(request);
    const decision = faults.active ? await faults.decide(attrs, request) : undefined;
    if (decision?.delayMs) await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
    const response = decision?.response ?? (await handle(request));
    const streaming = response.status === 200 && !decision?.response && streamsWatch(attrs);
    // The log keeps references and reads the bodies only when asked (see RequestRecorder.record).
    if (requests.enabled) requests.record(attrs, response.status, !!decision, request, streaming ? undefined : response);
    return response;
  };
}

/** Whether the handler answers with a watch stream: only a watch verb does (a named GET ignores `watch=true`). */
function streamsWatch(attrs: RequestAttributes): boolean {
  return attrs.verb === 'watch';
}
