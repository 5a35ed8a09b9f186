// The probe and lifecycle-hook parts of validateContainers/validateInitContainers
// (pkg/apis/core/validation/validation.go, v1.36): validateLivenessProbe/validateReadinessProbe/
// validateStartupProbe over validateProbe, validateHandler (exactly one handler type, in the order
// exec, httpGet, tcpSocket, grpc, sleep), the actions' own checks, validateLifecycle, and the init
// container rule (probes and lifecycle only for a sidecar, restartPolicy: Always). Runs after
// defaulting, so a probe's zero timeouts and thresholds are already the defaults and only negative
// values are left to refuse.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { IS_NEGATIVE_ERROR_MSG } from '../../validation/meta-fields.ts';
import { regexError } from '../../validation/names.ts';
import { isValidPortName, isValidPortNum } from '../../validation/ports.ts';
import { isPlainObject } from '../object.ts';
import { asObject } from './shared.ts';

type Json = Record<string, unknown>;
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const set = (v: unknown): boolean => v !== undefined && v !== null;

const HANDLER_TYPES = ['exec', 'httpGet', 'tcpSocket', 'grpc', 'sleep'] as const;
const SUPPORTED_HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';
const INIT_ONLY_WITH_ALWAYS = 'may not be set for init containers without restartPolicy=Always';

/** ValidatePortNumOrName: an intstr port, a number or an IANA service name. */
function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => fieldError.invalid(path, port, m));
  const n = int(port);
  return isValidPortNum(n).map((m) => fieldError.invalid(path, n, m));
}

function validateAction(type: (typeof HANDLER_TYPES)[number], action: Json, gracePeriod: number | undefined, path: string): FieldError[] {
  switch (type) {
    case 'exec':
      return Array.isArray(action.command) && action.command.length > 0 ? [] : [fieldError.required(`${path}.command`)];
    case 'httpGet': {
      const errs: FieldError[] = [];
      if (typeof action.path !== 'string' || action.path === '') errs.push(fieldError.required(`${path}.path`));
      errs.push(...validatePortNumOrName(action.port, `${path}.port`));
      const scheme = typeof action.scheme === 'string' ? action.scheme : '';
      if (!SUPPORTED_HTTP_SCHEMES.includes(scheme)) errs.push(fieldError.notSupported(`${path}.scheme`, scheme, SUPPORTED_HTTP_SCHEMES));
      for (const header of Array.isArray(action.httpHeaders) ? action.httpHeaders.filter(isPlainObject) : []) {
        const name = typeof header.name === 'string' ? header.name : '';
        if (!/^[-A-Za-z0-9]+$/.test(name)) {
          errs.push(fieldError.invalid(`${path}.httpHeaders`, name, regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME_FMT, 'X-Header-Name')));
        }
      }
      return errs;
    }
    case 'tcpSocket':
      return validatePortNumOrName(action.port, `${path}.port`);
    case 'grpc':
      return validatePortNumOrName(int(action.port), `${path}.port`);
    case 'sleep': {
      // validateSleepAction with PodLifecycleSleepActionAllowZero (on by default in v1.36). A pod
      // without a grace period has its error elsewhere; the sleep is not checked then.
      const seconds = int(action.seconds);
      if (gracePeriod === undefined || (seconds >= 0 && seconds <= gracePeriod)) return [];
      return [fieldError.invalid(path, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)];
    }
  }
}

/** validateHandler: exactly one handler type, each later one Forbidden; the first one's own checks. */
function validateHandler(handler: Json, types: readonly (typeof HANDLER_TYPES)[number][], gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let handlers = 0;
  for (const type of types) {
    const action = asObject(handler[type]);
    if (!action) continue;
    if (handlers > 0) errs.push(fieldError.forbidden(`${path}.${type}`, 'may not specify more than 1 handler type'));
    else {
      handlers++;
      errs.push(...validateAction(type, action, gracePeriod, `${path}.${type}`));
    }
  }
  if (handlers === 0) errs.push(fieldError.required(path, 'must specify a handler type'));
  return errs;
}

// handlerFromProbe has no sleep, handlerFromLifecycle no grpc.
const PROBE_HANDLERS = HANDLER_TYPES.filter((t) => t !== 'sleep');
const LIFECYCLE_HANDLERS = HANDLER_TYPES.filter((t) => t !== 'grpc');

/** validateProbe: the handler, non-negative timings and thresholds, a positive probe grace period. */
function validateProbe(probe: Json, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs = validateHandler(probe, PROBE_HANDLERS, gracePeriod, path);
  for (const key of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    const value = int(probe[key]);
    if (value < 0) errs.push(fieldError.invalid(`${path}.${key}`, value, IS_NEGATIVE_ERROR_MSG));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0) errs.push(fieldError.invalid(`${path}.terminationGracePeriodSeconds`, grace, 'must be greater than 0'));
  return errs;
}

/** validateLivenessProbe, validateReadinessProbe and validateStartupProbe of one container. */
function validateProbes(c: Json, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const probe = asObject(c[kind]);
    if (!probe) continue;
    const probePath = `${path}.${kind}`;
    errs.push(...validateProbe(probe, gracePeriod, probePath));
    if (kind === 'readinessProbe') {
      if (set(probe.terminationGracePeriodSeconds)) errs.push(fieldError.invalid(`${probePath}.terminationGracePeriodSeconds`, probe.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
    } else if (int(probe.successThreshold) !== 1) errs.push(fieldError.invalid(`${probePath}.successThreshold`, int(probe.successThreshold), 'must be 1'));
  }
  return errs;
}

/** validateLifecycle: postStart and preStop handlers. */
function validateLifecycle(lifecycle: Json, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop'] as const) {
    const handler = asObject(lifecycle[hook]);
    if (handler) errs.push(...validateHandler(handler, LIFECYCLE_HANDLERS, gracePeriod, `${path}.${hook}`));
  }
  return errs;
}

/**
 * What validateContainers checks of a regular container after its name: hooks and probes. A
 * container's restartPolicy and restartPolicyRules follow ContainerRestartRules (v1.35+) and are
 * not checked here.
 */
export function validateRegularContainerHooks(c: Json, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const lifecycle = asObject(c.lifecycle);
  if (lifecycle) errs.push(...validateLifecycle(lifecycle, gracePeriod, `${path}.lifecycle`));
  errs.push(...validateProbes(c, gracePeriod, path));
  return errs;
}

/** What validateInitContainers checks after the name: a sidecar's hooks and probes, or none at all. */
export function validateInitContainerHooks(c: Json, gracePeriod: number | undefined, path: string): FieldError[] {
  if (c.restartPolicy === 'Always') {
    const errs: FieldError[] = [];
    const lifecycle = asObject(c.lifecycle);
    if (lifecycle) errs.push(...validateLifecycle(lifecycle, gracePeriod, `${path}.lifecycle`));
    errs.push(...validateProbes(c, gracePeriod, path));
    return errs;
  }
  return (['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'] as const)
    .filter((key) => set(c[key]))
    .map((key) => fieldError.forbidden(`${path}.${key}`, INIT_ONLY_WITH_ALWAYS));
}
