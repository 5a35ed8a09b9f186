// The Node.js check of the library's entry points (`kubefake`, `kubefake/vitest`, `kubefake/cel`)
// and of createFakeCluster(). The range and its one-sentence wording live in bin/node-support.cjs
// (one copy for the CLI, `npm test`/`npm start` and this), read relative to this file from src/
// and dist/ alike.
//
// Importing this module runs the check, and each entry point imports it first: ES modules evaluate
// their imports in order, and on an older Node a dependency crashes while loading (undici 8 reads
// zlib.createZstdDecompress.bind at load, and Node 22.12 has no zstd), before createFakeCluster()
// could be called.
import { createRequire } from 'node:module';

interface NodeSupport {
  unsupportedNodeMessage(version?: string): string | undefined;
}

const nodeSupport = createRequire(import.meta.url)('../bin/node-support.cjs') as NodeSupport;

/** Throws the one-sentence requirement when `version` (default: this process) is too old. */
export function assertSupportedNode(version: string = process.versions.node): void {
  const message = nodeSupport.unsupportedNodeMessage(version);
  if (message !== undefined) throw new Error(message);
}

assertSupportedNode();
