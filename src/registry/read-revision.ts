// "At least revision N" reads: the apiserver waits up to 3 s for its cache to catch up, then gives 504.
import { fieldError, fieldErrorMessage } from '../errors/field-error.ts';
import { badRequest, timeout } from '../errors/status-error.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';

const WAIT_MS = 3000;

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * APIObjectVersioner.ParseResourceVersion (strconv.ParseUint(rv, 10, 64)), wrapped as the storage
 * layer wraps its InvalidError. A value above 2^53 is still a valid revision to Go; as a number it
 * only loses digits that no revision of this store reaches, so comparisons stay right (messages
 * print it with resourceVersionText).
 */
export function parseResourceVersion(rv: string): number {
  const reason = !/^\d+$/.test(rv) ? 'invalid syntax' : BigInt(rv) > MAX_UINT64 ? 'value out of range' : undefined;
  if (reason) {
    const invalid = fieldError.invalid('resourceVersion', rv, `strconv.ParseUint: parsing ${JSON.stringify(rv)}: ${reason}`);
    throw badRequest(`invalid resource version: ${fieldErrorMessage(invalid)}`);
  }
  return Number(rv);
}

/** A parsed resource version as Go's %d prints the uint64 (every digit, no leading zeros). */
export function resourceVersionText(rv: string): string {
  return BigInt(rv).toString();
}

export async function readAtLeast(store: VersionedStore, resourceVersion: string | undefined): Promise<void> {
  if (!resourceVersion || resourceVersion === '0') return;
  const wanted = parseResourceVersion(resourceVersion);
  if (store.revision >= wanted) return;
  await new Promise<void>((resolve, reject) => {
    const unsubscribe = store.subscribe(() => {
      if (store.revision < wanted) return;
      clearTimeout(timer);
      unsubscribe();
      resolve();
    });
    const timer = setTimeout(() => {
      unsubscribe();
      reject(
        timeout(`Too large resource version: ${resourceVersionText(resourceVersion)}, current: ${store.revision}`, 1, [
          { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
        ]),
      );
    }, WAIT_MS);
  });
}
