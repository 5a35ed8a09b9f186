// Preloaded with `node --require` by test/node-support.test.ts: makes this process report the Node.js
// version in KUBEFAKE_PRETEND_NODE, so the entry points' version check can be run on any Node.
'use strict';
Object.defineProperty(process.versions, 'node', { value: process.env.KUBEFAKE_PRETEND_NODE, configurable: true });
