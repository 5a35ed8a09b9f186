// List continuation tokens in the etcd3 store's format (apiserver/pkg/storage/continue.go):
// base64url without padding of {"v":"meta.k8s.io/v1","rv":<listRV>,"start":"<key>\u0000"}.
import { badRequest } from '../errors/status-error.ts';

export interface ContinueToken {
  /** The revision every page is served at; -1 means "continue at the latest revision". */
  resourceVersion: number;
  /** The key (relative to the list prefix) to start from, inclusive. */
  startKey: string;
}

/** `startKey` is relative to the list prefix; a page's next key is its last key plus "\u0000". */
export function encodeContinue(startKey: string, resourceVersion: number): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: resourceVersion, start: startKey });
  return Buffer.from(json, 'utf8').toString('base64url');
}

const invalidToken = (detail: string) => badRequest(`invalid continue token: ${detail}`);

export function decodeContinue(token: string): ContinueToken {
  if (!/^[A-Za-z0-9_-]*$/.test(token) || token.length % 4 === 1) {
    const at = token.search(/[^A-Za-z0-9_-]/);
    throw invalidToken(`continue key is not valid: illegal base64 data at input byte ${at < 0 ? token.length - 1 : at}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw invalidToken(`continue key is not valid: ${(err as Error).message}`);
  }
  const { v, rv, start } = (parsed ?? {}) as { v?: unknown; rv?: unknown; start?: unknown };
  if (v !== 'meta.k8s.io/v1') throw invalidToken(`continue key is not valid: server does not recognize this encoded version ${String(v ?? '')}`);
  if (typeof rv !== 'number' || !Number.isInteger(rv) || rv === 0) throw invalidToken('inconsistent continuation');
  if (typeof start !== 'string' || start.length === 0) throw invalidToken('empty start key');
  // The real store path.Clean()s the key to stop clients escaping the list prefix.
  if (start.split('/').some((seg) => seg === '..' || seg === '.')) throw invalidToken(`continue key is not valid: ${start}`);
  return { resourceVersion: rv, startKey: start };
}
