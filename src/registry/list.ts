// LIST with the etcd3 store's semantics: resourceVersion / resourceVersionMatch, selectors, and
// pagination where every page is read at the first page's revision.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { badRequest, expired } from '../errors/status-error.ts';
import { parseLabelSelector, SelectorParseError } from '../selectors/label-selector.ts';
import { RevisionCompactedError, type DerivedSlot, type LabelNarrowing, type VersionedStore } from '../storage/versioned-store.ts';
import { decodeContinue, encodeContinue } from './continue-token.ts';
import { compileFieldSelector, type ObjectPredicate } from './field-selection.ts';
import { validateListOptions, type ListOptions } from '../apis/options.ts';
import { parseResourceVersion, readAtLeast } from './read-revision.ts';

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue: string | undefined;
  remainingItemCount: number | undefined;
}

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
const LIST_EXPIRED = 'The resourceVersion for the provided list is too old.';

export function compileLabelSelector(text: string | undefined): ObjectPredicate | undefined {
  return compileListLabelSelector(text).predicate;
}

/**
 * A label selector as a predicate, and the label the store's index can narrow the walk to: the
 * first `=`/`==`/`in` requirement (every object the selector matches carries one of its values).
 */
export function compileListLabelSelector(text: string | undefined): { predicate: ObjectPredicate | undefined; narrowing: LabelNarrowing | undefined } {
  if (!text) return { predicate: undefined, narrowing: undefined };
  let selector;
  try {
    selector = parseLabelSelector(text);
  } catch (err) {
    if (err instanceof SelectorParseError) throw badRequest(err.message);
    throw err;
  }
  if (selector.empty) return { predicate: undefined, narrowing: undefined };
  const narrowing = selector.requirements.find((r) => r.operator === '=' || r.operator === '==' || r.operator === 'in');
  return { predicate: (obj) => selector.matches(obj.metadata?.labels), narrowing: narrowing && { key: narrowing.key, values: narrowing.values } };
}

export async function listObjects(
  store: VersionedStore,
  type: ResourceType,
  bucket: string,
  namespace: string | undefined,
  options: ListOptions,
  /** Each selected object as the list answers it (default: as stored); `slot` is where the store lets it keep that. */
  present?: (object: StoredObject, slot: DerivedSlot | undefined) => KubeObject,
): Promise<ListResult> {
  validateListOptions(options);
  const { predicate: byLabel, narrowing } = compileListLabelSelector(options.labelSelector);
  const byField = compileFieldSelector(type, options.fieldSelector);
  const prefix = type.namespaced && namespace ? `${namespace}/` : '';
  const { revision, startKey, paged } = await resolveStart(store, options);
  const limit = paged && options.limit && options.limit > 0 ? options.limit : 0;

  let range;
  try {
    // Only this page's keys are walked: the range starts at the continue key by binary search.
    // A label the index knows narrows the walk to the objects carrying it.
    range = store.range(bucket, prefix, { from: startKey !== undefined ? prefix + startKey : undefined, revision, narrowing });
  } catch (err) {
    if (!(err instanceof RevisionCompactedError)) throw err;
    if (options.continue) {
      throw expired(CONTINUE_EXPIRED, { continue: encodeContinue(startKey ?? '', -1) });
    }
    throw expired(LIST_EXPIRED);
  }

  const items: KubeObject[] = [];
  let lastKey: string | undefined;
  let hasMore = false;
  range.forEach((key, object, slot) => {
    // Like the etcd3 store: once the page is full, any further key means there is more.
    if (limit && items.length >= limit) {
      hasMore = true;
      return false;
    }
    lastKey = key;
    if ((!byLabel || byLabel(object)) && (!byField || byField(object))) items.push(present ? present(object, slot) : object);
    return true;
  });
  // A narrowed walk visits only candidates: a full page still has more when any key follows.
  if (limit && items.length >= limit && !hasMore && lastKey !== undefined) hasMore = range.hasKeyAfter(lastKey);
  const filtered = !!byLabel || !!byField;
  return {
    items,
    resourceVersion: String(revision),
    continue: hasMore && lastKey !== undefined ? encodeContinue(`${lastKey.slice(prefix.length)}\u0000`, revision) : undefined,
    remainingItemCount: hasMore && !filtered ? range.size - limit : undefined,
  };
}

/** Which revision to read and where to start, from resourceVersion(Match) or a continue token. */
async function resolveStart(
  store: VersionedStore,
  options: ListOptions,
): Promise<{ revision: number; startKey: string | undefined; paged: boolean }> {
  const rv = options.resourceVersion;
  if (options.continue) {
    if (rv && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(options.continue);
    if (token.resourceVersion === -1) return { revision: store.revision, startKey: token.startKey, paged: true };
    await readAtLeast(store, String(token.resourceVersion));
    return { revision: token.resourceVersion, startKey: token.startKey, paged: true };
  }
  if (!rv) return { revision: store.revision, startKey: undefined, paged: true };
  // RV=0 is served from the watch cache, which ignores limit.
  if (rv === '0') return { revision: store.revision, startKey: undefined, paged: false };
  const wanted = parseResourceVersion(rv);
  const exact = options.resourceVersionMatch === 'Exact' || (!options.resourceVersionMatch && !!options.limit && options.limit > 0);
  await readAtLeast(store, rv);
  return { revision: exact ? wanted : store.revision, startKey: undefined, paged: true };
}
