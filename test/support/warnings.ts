// Reads the `Warning: 299 - "<text>"` headers of the last response a client-node call got (the
// generated clients drop response headers).
import { Observable, type ConfigurationOptions, type ObservableMiddleware, type RequestContext, type ResponseContext } from '@kubernetes/client-node';

/** The texts of every `299` warning in a header value (several headers arrive joined by ", "). */
export function warningTexts(header: string | null | undefined): string[] {
  if (!header) return [];
  return [...header.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
}

export interface WarningCapture {
  /** Pass as the call's last argument. */
  options: ConfigurationOptions;
  /** The warnings of the last response, in header order. */
  warnings(): string[];
}

/** `base`: other per-call options (e.g. setHeaderOptions for a patch type) to combine with. */
export function captureWarnings(base?: ConfigurationOptions): WarningCapture {
  let last: string[] = [];
  const middleware: ObservableMiddleware = {
    pre: (ctx: RequestContext) => new Observable(Promise.resolve(ctx)),
    post: (rsp: ResponseContext) => {
      last = warningTexts(rsp.headers['warning']);
      return new Observable(Promise.resolve(rsp));
    },
  };
  return { options: { ...base, middleware: [...(base?.middleware ?? []), middleware], middlewareMergeStrategy: 'append' }, warnings: () => last };
}
