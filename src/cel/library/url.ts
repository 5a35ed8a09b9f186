// The Kubernetes URL library (k8s.io/apiserver pkg/cel/library/urls.go, always on): `url()` and
// `isURL()` accept an absolute URI or an absolute path (Go's url.ParseRequestURI, as the OpenAPI
// `uri` format), and the accessors of `kubernetes.URL` read the url.Parse result (which, unlike
// ParseRequestURI, splits off a #fragment). Costs follow library/cost.go.
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { parseRequestURI, parseURL, type GoURL } from '../../go/net-url.ts';
import { chargeCall, runeCount } from './ip.ts';

export const URL_TYPE = 'kubernetes.URL';

/** A `kubernetes.URL` value. */
export class CelURL {
  readonly url: GoURL;
  constructor(url: GoURL) {
    this.url = url;
  }
  toString(): string {
    return this.url.toString();
  }
}

function toURL(s: string): CelURL {
  chargeCall(runeCount(s) * 0.1);
  try {
    parseRequestURI(s);
    return new CelURL(parseURL(s));
  } catch (e) {
    throw new EvaluationError(`URL parse error during conversion from string: ${(e as Error).message}`);
  }
}

function isURL(s: string): boolean {
  try {
    parseRequestURI(s);
    return true;
  } catch {
    return false;
  }
}

export function registerURL(env: Environment): void {
  env.registerType(URL_TYPE, { ctor: CelURL, fields: {} });
  env.registerFunction(`url(string): ${URL_TYPE}`, toURL);
  env.registerFunction('isURL(string): bool', isURL);
  env.registerFunction(`${URL_TYPE}.getScheme(): string`, (u: CelURL) => u.url.getScheme());
  env.registerFunction(`${URL_TYPE}.getHost(): string`, (u: CelURL) => u.url.getHost());
  env.registerFunction(`${URL_TYPE}.getHostname(): string`, (u: CelURL) => u.url.getHostname());
  env.registerFunction(`${URL_TYPE}.getPort(): string`, (u: CelURL) => u.url.getPort());
  env.registerFunction(`${URL_TYPE}.getEscapedPath(): string`, (u: CelURL) => u.url.getEscapedPath());
  env.registerFunction(`${URL_TYPE}.getQuery(): map<string, list<string>>`, (u: CelURL) => u.url.getQuery());
  // Two URLs are equal when they print the same (URL.String()).
  env.registerOperator(`${URL_TYPE} == ${URL_TYPE}`, (a: CelURL, b: CelURL) => a.url.toString() === b.url.toString());
}
