// The patch types of PATCH requests by content type, apart from the engines (patch/index.ts), which
// load with the first request that patches: a 415 or a server-side apply needs only this table.
export type PatchType = 'json' | 'merge' | 'strategic';

/** Content-Type (without parameters) → patch type, as types.PatchType names them. */
export const PATCH_CONTENT_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
};
