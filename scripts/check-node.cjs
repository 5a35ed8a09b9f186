// First step of `npm test` and `npm start`: stop with one sentence on a Node.js kubefake does not
// support, before TypeScript, Vitest or Jest start (on Node 20 Vitest otherwise runs for minutes and
// dies with `Map.groupBy is not a function`). CommonJS in old syntax so any Node can parse it.
'use strict';
require('../bin/node-support.cjs').exitIfUnsupported();
