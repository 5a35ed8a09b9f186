// "At least revision N" reads: the apiserver waits up to 3 s for its cache to catch up, then gives 504.
import { fieldError, fieldErrorMessage } from '../errors/field-error.ts';
import { badRequest, timeout } from '../errors/status-error.ts';
import type { VersionedStore } from '../storage/versioned-store.ts';

const WAIT_MS = 3000;

/** APIObjectVersioner.ParseResourceVersion, wrapped as the storage layer wraps its InvalidError. */
export function parseResourceVersion(rv: string): number {
  if (!/^\d+$/.test(rv)) {
    const invalid = fieldError.invalid('resourceVersion', rv, `strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
    throw badRequest(`invalid resource version: ${fieldErrorMessage(invalid)}`);
  }
  return Number(rv);
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
        timeout(`Too large resource version: ${wanted}, current: ${store.revision}`, 1, [
          { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
        ]),
      );
    }, WAIT_MS);
  });
}
