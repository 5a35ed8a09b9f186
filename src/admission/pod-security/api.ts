// Pod Security levels, versions and the policy a namespace's labels select, as
// k8s.io/pod-security-admission/api (constants.go, helpers.go) at v0.36.2 defines them.
import type { FieldError } from '../../errors/field-error.ts';

export type Level = 'privileged' | 'baseline' | 'restricted';

const VALID_LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/**
 * A policy version: `latest`, or v1.<minor>. A minor past 2^53 (Go takes any int64) keeps its
 * digits for printing; it compares as a number, and every such version checks as `latest` anyway.
 */
export type Version = { latest: true } | { latest: false; minor: number; digits?: string };

export const LATEST: Version = { latest: true };

export const v1 = (minor: number): Version => ({ latest: false, minor });

export function versionString(v: Version): string {
  return v.latest ? 'latest' : `v1.${v.digits ?? v.minor}`;
}

/** Version.Older: latest is newer than every version, even future ones. */
export function older(v: Version, other: Version): boolean {
  if (v.latest) return false;
  if (other.latest) return true;
  return v.minor < other.minor;
}

export const sameVersion = (a: Version, b: Version): boolean => versionString(a) === versionString(b);

export interface LevelVersion {
  level: Level;
  version: Version;
}

/** LevelVersion.String(): `restricted:latest`, `baseline:v1.30`. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

export const sameLevelVersion = (a: LevelVersion, b: LevelVersion): boolean => levelVersionString(a) === levelVersionString(b);

export interface Policy {
  enforce: LevelVersion;
  audit: LevelVersion;
  warn: LevelVersion;
}

export function fullyPrivileged(p: Policy): boolean {
  return p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';
}

const LABEL_PREFIX = 'pod-security.kubernetes.io/';
export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

/** Audit annotations are added under this prefix (api.AuditAnnotationPrefix). */
export const AUDIT_ANNOTATION_PREFIX = LABEL_PREFIX;

/**
 * The policy of kube-apiserver's default PodSecurity configuration (admission/api/v1/defaults.go):
 * every mode privileged:latest, no exemptions.
 */
export const DEFAULT_POLICY: Policy = {
  enforce: { level: 'privileged', version: LATEST },
  audit: { level: 'privileged', version: LATEST },
  warn: { level: 'privileged', version: LATEST },
};

type Parsed<T> = { value: T; error?: string };

/** ParseLevel: an unknown level reads as restricted, with an error. */
function parseLevel(level: string): Parsed<Level> {
  if ((VALID_LEVELS as readonly string[]).includes(level)) return { value: level as Level };
  return { value: 'restricted', error: `must be one of ${VALID_LEVELS.join(', ')}` };
}

const VERSION_PATTERN = /^v1\.([0-9]|[1-9][0-9]*)$/;
const INT64_MAX = 2n ** 63n - 1n;

/** ParseVersion: `latest` or `v1.x`; anything else reads as latest, with an error. */
function parseVersion(version: string): Parsed<Version> {
  if (version === 'latest') return { value: LATEST };
  const match = VERSION_PATTERN.exec(version);
  // strconv.Atoi fails past int64.
  if (!match || BigInt(match[1]!) > INT64_MAX) return { value: LATEST, error: 'must be "latest" or "v1.x"' };
  const minor = Number(match[1]);
  return { value: Number.isSafeInteger(minor) ? v1(minor) : { latest: false, minor, digits: match[1]! } };
}

/** CompareLevels: 1 when a is stricter than b, -1 when less strict, 0 when equal. */
export function compareLevels(a: Level, b: Level): number {
  if (a === b) return 0;
  if (a === 'privileged') return -1;
  if (a === 'restricted') return 1;
  return b === 'privileged' ? 1 : -1;
}

/**
 * PolicyToEvaluate: the namespace's policy from its labels, the defaults where a label is absent.
 * A usable policy comes back even with errors: an unparsable enforce level is restricted, an
 * unparsable audit or warn level privileged (fail open), an unparsable version latest.
 */
export function policyToEvaluate(labels: Record<string, string> | undefined, defaults: Policy): { policy: Policy; errors: FieldError[] } {
  const p: Policy = { enforce: { ...defaults.enforce }, audit: { ...defaults.audit }, warn: { ...defaults.warn } };
  const errors: FieldError[] = [];
  if (!labels || Object.keys(labels).length === 0) return { policy: p, errors };
  const note = (label: string, value: string, error: string | undefined) => {
    if (error) errors.push({ type: 'FieldValueInvalid', field: `metadata.labels[${label}]`, value, detail: error });
  };
  let hasEnforceLevel = false;
  const has = (label: string) => Object.prototype.hasOwnProperty.call(labels, label);
  if (has(ENFORCE_LEVEL_LABEL)) {
    const parsed = parseLevel(labels[ENFORCE_LEVEL_LABEL]!);
    p.enforce.level = parsed.value;
    hasEnforceLevel = !parsed.error; // an invalid enforce level does not default warn
    note(ENFORCE_LEVEL_LABEL, labels[ENFORCE_LEVEL_LABEL]!, parsed.error);
  }
  if (has(ENFORCE_VERSION_LABEL)) {
    const parsed = parseVersion(labels[ENFORCE_VERSION_LABEL]!);
    p.enforce.version = parsed.value;
    note(ENFORCE_VERSION_LABEL, labels[ENFORCE_VERSION_LABEL]!, parsed.error);
  }
  if (has(AUDIT_LEVEL_LABEL)) {
    const parsed = parseLevel(labels[AUDIT_LEVEL_LABEL]!);
    p.audit.level = parsed.error ? 'privileged' : parsed.value;
    note(AUDIT_LEVEL_LABEL, labels[AUDIT_LEVEL_LABEL]!, parsed.error);
  }
  if (has(AUDIT_VERSION_LABEL)) {
    const parsed = parseVersion(labels[AUDIT_VERSION_LABEL]!);
    p.audit.version = parsed.value;
    note(AUDIT_VERSION_LABEL, labels[AUDIT_VERSION_LABEL]!, parsed.error);
  }
  const hasWarnLevel = has(WARN_LEVEL_LABEL);
  const hasWarnVersion = has(WARN_VERSION_LABEL);
  if (hasWarnLevel) {
    const parsed = parseLevel(labels[WARN_LEVEL_LABEL]!);
    p.warn.level = parsed.error ? 'privileged' : parsed.value;
    note(WARN_LEVEL_LABEL, labels[WARN_LEVEL_LABEL]!, parsed.error);
  }
  if (hasWarnVersion) {
    const parsed = parseVersion(labels[WARN_VERSION_LABEL]!);
    p.warn.version = parsed.value;
    note(WARN_VERSION_LABEL, labels[WARN_VERSION_LABEL]!, parsed.error);
  }
  // Warn defaults to the enforce level when that is explicitly set to something stricter.
  if (!hasWarnLevel && hasEnforceLevel && compareLevels(p.enforce.level, p.warn.level) > 0) {
    p.warn.level = p.enforce.level;
    if (!hasWarnVersion) p.warn.version = p.enforce.version;
  }
  return { policy: p, errors };
}
