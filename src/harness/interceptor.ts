// Sits in front of the API handler (both transports and cluster.handle() go through it): applies
// faults and records requests. Open watch streams are the handler's own (ServedWatches).
import type { FaultInjector } from './faults.ts';
import { requestAttributes, type RequestAttributes } from './request-attributes.ts';
import type { RequestRecorder, StreamedResponse } from './request-log.ts';
import { isStreamed } from '../http/sent-bodies.ts';

export interface InterceptorParts {
  faults: FaultInjector;
  requests: RequestRecorder;
  /** Copy the chunks of watch streams for the log (cassettes replay them). */
  watchBodies?: boolean;
}

export function intercept(handle: (request: Request) => Promise<Response>, parts: InterceptorParts): (request: Request) => Promise<Response> {
  const { faults, requests } = parts;
  return async (request) => {
    const attrs = requestAttributes(request);
    const decision = faults.active ? await faults.decide(attrs, request) : undefined;
    if (decision?.delayMs) await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
    let response = decision?.response ?? (await handle(request));
    // A followed pod log streams too: recorded like a watch, with its headers only.
    const streaming = response.status === 200 && !decision?.response && (streamsWatch(attrs) || isStreamed(response));
    if (!requests.enabled) return response;
    // The log keeps references and reads the bodies only when asked (see RequestRecorder.record).
    // A watch's chunks are copied as they pass only when asked for (`requestLog.watchBodies`).
    let streamed: StreamedResponse | undefined;
    if (streaming && !isStreamed(response) && parts.watchBodies && requests.keepsBodies && response.body) {
      const chunks: Uint8Array[] = [];
      streamed = { headers: response.headers, chunks };
      const copy = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          chunks.push(chunk.slice());
          controller.enqueue(chunk);
        },
      });
      response = new Response(response.body.pipeThrough(copy), { status: response.status, statusText: response.statusText, headers: response.headers });
    } else if (streaming) {
      streamed = { headers: response.headers };
    }
    requests.record(attrs, response.status, !!decision, request, streaming ? undefined : response, streamed);
    return response;
  };
}

/** Whether the handler answers with a watch stream: only a watch verb does (a named GET ignores `watch=true`). */
function streamsWatch(attrs: RequestAttributes): boolean {
  return attrs.verb === 'watch';
}
