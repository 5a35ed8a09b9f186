// The Kubernetes semver library (apiserver pkg/cel/library/semverlib.go, version 1 since 1.33):
// semver() and isSemver() with the optional normalize flag, and the kubernetes.Semver methods
// isGreaterThan, isLessThan, compareTo, major, minor, patch. Parsing and ordering are a port of
// github.com/blang/semver/v4 (Parse, Compare), error texts included.
import type { Environment } from '@marcbachmann/cel-js';
import { EvaluationError } from '@marcbachmann/cel-js';
import { chargeStringTraversal } from './quantity.ts';
import { goQuote } from '../../errors/go-format.ts';

export const SEMVER_TYPE = 'kubernetes.Semver';

const MAX_UINT64 = (1n << 64n) - 1n;
const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;

interface PrereleaseVersion {
  str: string;
  num: bigint;
  isNum: boolean;
}

/** A CEL kubernetes.Semver: semver.Version (build metadata kept, but not compared). */
export class CelSemver {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: readonly PrereleaseVersion[];
  readonly build: readonly string[];
  constructor(major: bigint, minor: bigint, patch: bigint, pre: PrereleaseVersion[], build: string[]) {
    this.major = major;
    this.minor = minor;
    this.patch = patch;
    this.pre = pre;
    this.build = build;
  }
}

class SemverError extends Error {}

const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === '0';

/** strconv.ParseUint(s, 10, 64) after a digits-only check: fails on "" and on overflow. */
function parseUint(s: string): bigint {
  if (s === '') throw new SemverError(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const v = BigInt(s);
  if (v > MAX_UINT64) throw new SemverError(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return v;
}

/** splitN(s, ".", 3) as Go's strings.SplitN. */
function splitN3(s: string): string[] {
  const first = s.indexOf('.');
  if (first < 0) return [s];
  const second = s.indexOf('.', first + 1);
  if (second < 0) return [s.slice(0, first), s.slice(first + 1)];
  return [s.slice(0, first), s.slice(first + 1, second), s.slice(second + 1)];
}

function versionNumber(part: string, name: string): bigint {
  if (!NUMBERS.test(part)) throw new SemverError(`Invalid character(s) found in ${name} number ${goQuote(part)}`);
  if (hasLeadingZeroes(part)) throw new SemverError(`${name[0]!.toUpperCase()}${name.slice(1)} number must not contain leading zeroes ${goQuote(part)}`);
  return parseUint(part);
}

function prerelease(s: string): PrereleaseVersion {
  if (s.length === 0) throw new SemverError('Prerelease is empty');
  if (NUMBERS.test(s)) {
    if (hasLeadingZeroes(s)) throw new SemverError(`Numeric PreRelease version must not contain leading zeroes ${goQuote(s)}`);
    return { str: '', num: parseUint(s), isNum: true };
  }
  if (ALPHANUM.test(s)) return { str: s, num: 0n, isNum: false };
  throw new SemverError(`Invalid character(s) found in prerelease ${goQuote(s)}`);
}

/** semver.Parse. */
function parseVersion(s: string): CelSemver {
  if (s.length === 0) throw new SemverError('Version string empty');
  const parts = splitN3(s);
  if (parts.length !== 3) throw new SemverError('No Major.Minor.Patch elements found');
  const major = versionNumber(parts[0]!, 'major');
  const minor = versionNumber(parts[1]!, 'minor');
  let patchStr = parts[2]!;
  let build: string[] = [];
  let pre: string[] = [];
  const buildIndex = patchStr.indexOf('+');
  if (buildIndex !== -1) {
    build = patchStr.slice(buildIndex + 1).split('.');
    patchStr = patchStr.slice(0, buildIndex);
  }
  const preIndex = patchStr.indexOf('-');
  if (preIndex !== -1) {
    pre = patchStr.slice(preIndex + 1).split('.');
    patchStr = patchStr.slice(0, preIndex);
  }
  const patch = versionNumber(patchStr, 'patch');
  const prereleases = pre.map(prerelease);
  for (const b of build) {
    if (b.length === 0) throw new SemverError('Build meta data is empty');
    if (!ALPHANUM.test(b)) throw new SemverError(`Invalid character(s) found in build meta data ${goQuote(b)}`);
  }
  return new CelSemver(major, minor, patch, prereleases, build);
}

/** normalizeAndParse: drops a "v" prefix and leading zeros, fills missing minor/patch with 0. */
function normalizeAndParse(input: string): CelSemver {
  const s = input.startsWith('v') ? input.slice(1) : input;
  const parts = splitN3(s).map((p) => {
    if (p.length <= 1) return p;
    const trimmed = p.replace(/^0+/, '');
    return trimmed.length === 0 || !/^[0-9]/.test(trimmed) ? '0' + trimmed : trimmed;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) throw new SemverError('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parseVersion(parts.join('.'));
}

const cmp = (a: bigint | string, b: bigint | string): number => (a === b ? 0 : a > b ? 1 : -1);

function comparePrerelease(a: PrereleaseVersion, b: PrereleaseVersion): number {
  if (a.isNum && !b.isNum) return -1;
  if (!a.isNum && b.isNum) return 1;
  return a.isNum ? cmp(a.num, b.num) : cmp(a.str, b.str);
}

/** Version.Compare: numbers, then prerelease identifiers; build metadata is ignored. */
export function compareSemver(a: CelSemver, b: CelSemver): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return cmp(a[k], b[k]);
  // A release sorts after its prereleases.
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < a.pre.length && i < b.pre.length; i++) {
    const c = comparePrerelease(a.pre[i]!, b.pre[i]!);
    if (c !== 0) return c;
  }
  return cmp(BigInt(a.pre.length), BigInt(b.pre.length));
}

function parse(s: string, normalize: boolean): CelSemver {
  chargeStringTraversal(s);
  try {
    return normalize ? normalizeAndParse(s) : parseVersion(s);
  } catch (e) {
    if (e instanceof SemverError) throw new EvaluationError(e.message);
    throw e;
  }
}

function isSemver(s: string, normalize: boolean): boolean {
  try {
    parse(s, normalize);
    return true;
  } catch (e) {
    if (e instanceof EvaluationError) return false;
    throw e;
  }
}

/** types.Int(v.Major): a uint64 converted to int64 wraps. */
const toInt = (v: bigint): bigint => BigInt.asIntN(64, v);

export function registerSemver(env: Environment): void {
  const S = SEMVER_TYPE;
  // Opaque: no fields to select (`undefined field` at compile time, as in cel-go).
  env.registerType(S, { ctor: CelSemver, fields: {} });
  env.registerFunction(`semver(string): ${S}`, (s: string) => parse(s, false));
  env.registerFunction(`semver(string, bool): ${S}`, parse);
  env.registerFunction('isSemver(string): bool', (s: string) => isSemver(s, false));
  env.registerFunction('isSemver(string, bool): bool', isSemver);
  env.registerFunction(`${S}.isGreaterThan(${S}): bool`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) === 1);
  env.registerFunction(`${S}.isLessThan(${S}): bool`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) === -1);
  env.registerFunction(`${S}.compareTo(${S}): int`, (a: CelSemver, b: CelSemver) => BigInt(compareSemver(a, b)));
  env.registerFunction(`${S}.major(): int`, (a: CelSemver) => toInt(a.major));
  env.registerFunction(`${S}.minor(): int`, (a: CelSemver) => toInt(a.minor));
  env.registerFunction(`${S}.patch(): int`, (a: CelSemver) => toInt(a.patch));
  env.registerOperator(`${S} == ${S}`, (a: CelSemver, b: CelSemver) => compareSemver(a, b) === 0);
}
