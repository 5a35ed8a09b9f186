// Reads what the server actually answered on a typed client-node call whose return type loses
// it: DELETE is typed as V1Status, but a deletion that waits on finalizers or a grace period
// answers the object itself.
import { Observable, ResponseContext, type ConfigurationOptions, type ObservableMiddleware, type RequestContext } from '@kubernetes/client-node';

export interface WireCapture {
  /** Pass as the call's second argument. */
  options: ConfigurationOptions;
  /** The last response body, parsed. */
  body<T = Record<string, unknown>>(): T;
  status(): number;
}

export function wire(): WireCapture {
  let text = '';
  let code = 0;
  const record = async (rsp: ResponseContext): Promise<ResponseContext> => {
    text = await rsp.body.text();
    code = rsp.httpStatusCode;
    // The body stream is consumed: hand client-node a replayable copy.
    return new ResponseContext(rsp.httpStatusCode, rsp.headers, { text: async () => text, binary: async () => Buffer.from(text), stream: () => null });
  };
  const middleware: ObservableMiddleware = {
    pre: (ctx: RequestContext) => new Observable(Promise.resolve(ctx)),
    post: (rsp: ResponseContext) => new Observable(record(rsp)),
  };
  return {
    options: { middleware: [middleware], middlewareMergeStrategy: 'append' },
    body: <T>() => JSON.parse(text) as T,
    status: () => code,
  };
}
