// Which Node.js kubefake runs on, stated once: package.json `engines.node`. Every entry point (the
// `kubefake` CLI, createFakeCluster(), `npm test` / `npm start` via scripts/check-node.cjs) asks
// this module first, so an old Node gets one sentence instead of a crash deep inside undici or
// Vitest. CommonJS in old syntax on purpose: it must load and parse on any Node that might run it.
'use strict';

var fs = require('fs');
var path = require('path');

var RANGE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).engines.node;

function parseVersion(text) {
  var m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text);
  if (!m) throw new Error('kubefake: not a Node.js version: ' + text);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function compare(a, b) {
  for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// The range is a `||` list of `^X.Y.Z` (X.Y.Z or later within major X) and `>=X.Y.Z`; any other
// form is refused here, so a change to `engines` that this check cannot read fails loudly.
function parseRange(range) {
  return range.split('||').map(function (part) {
    var m = /^\s*(\^|>=)\s*(\d+\.\d+\.\d+)\s*$/.exec(part);
    if (!m) throw new Error('kubefake: cannot read the engines range "' + range + '" (only ^X.Y.Z and >=X.Y.Z, joined by ||)');
    return { op: m[1], min: parseVersion(m[2]) };
  });
}

function satisfies(version, range) {
  var v = parseVersion(version);
  return parseRange(range).some(function (c) {
    return compare(v, c.min) >= 0 && (c.op === '>=' || v[0] === c.min[0]);
  });
}

function describeRange(range) {
  var parts = parseRange(range).map(function (c) {
    var min = c.min.join('.');
    return c.op === '^' ? min + ' or a later ' + c.min[0] + '.x' : min + ' or later';
  });
  return parts.length === 1 ? parts[0] : parts.slice(0, -1).join(', ') + (parts.length > 2 ? ',' : '') + ' or ' + parts[parts.length - 1];
}

/** The one-sentence complaint for `version` (default: this process), or undefined when it is supported. */
function unsupportedNodeMessage(version, range) {
  version = version || process.versions.node;
  range = range || RANGE;
  if (satisfies(version, range)) return undefined;
  return 'kubefake needs Node.js ' + describeRange(range) + ' (package.json engines "' + range + '"), but this is Node.js v' + version.replace(/^v/, '') + '.';
}

/** Prints the complaint and exits 1 when this Node is not supported; returns otherwise. */
function exitIfUnsupported() {
  var message = unsupportedNodeMessage();
  if (message) {
    process.stderr.write(message + '\n');
    process.exit(1);
  }
}

module.exports = { RANGE: RANGE, satisfies: satisfies, unsupportedNodeMessage: unsupportedNodeMessage, exitIfUnsupported: exitIfUnsupported };
