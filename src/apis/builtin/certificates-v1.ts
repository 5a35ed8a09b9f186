// certificates.k8s.io/v1: discovery data from the generated catalogue; the requester stamped into
// spec on create (csrStrategy.PrepareForCreate); the field-label conversion
// of pkg/apis/certificates/v1/conversion.go adds spec.signerName; the `approval` subresource as
// csrApprovalStrategy (pkg/registry/certificates/certificates/strategy.go) serves it. kubefake
// signs nothing: no signer controller ever sets status.certificate.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import type { ResourceType, Strategy, StrategyRequest } from '../resource-type.ts';
import { REQUESTER } from './authentication-v1.ts';
import type { UserInfo } from '../options.ts';
import type { BuiltinContext } from './context.ts';
import { genericDefinition } from './generic.ts';
import { builtin, builtinFacts, composeStrategy, getIn, goString, metadataName } from './shared.ts';
import { validateCertificateSigningRequestCreate } from './certificates-validation.ts';
import { keepFromStored } from './status-strategies.ts';

export function certificatesV1ResourceTypes(ctx: Pick<BuiltinContext, 'now'>): ResourceType[] {
  const def = genericDefinition(builtinFacts('certificates.k8s.io', 'v1', 'certificatesigningrequests'));
  return [
    builtin('certificates.k8s.io', 'v1', {
      ...def,
      // csrStrategy: create stamps the requester and validates the request; an update keeps the
      // stored spec (and status).
      strategy: composeStrategy(def.strategy ?? {}, keepFromStored('spec'), { prepareForCreate: stampRequester, validate: validateCertificateSigningRequestCreate }),
      fieldSelectors: { 'metadata.name': metadataName, 'spec.signerName': (obj) => goString(getIn(obj, ['spec', 'signerName'])) },
      // csrStatusStrategy: a /status write changes status.certificate only (the conditions are the approval's).
      statusStrategy: composeStrategy(keepFromStored('spec'), { prepareForUpdate: keepConditions }),
      updateSubresources: { approval: csrApprovalStrategy(ctx.now) },
    }),
  ];
}

/**
 * csrStrategy.PrepareForCreate: spec.username, uid, groups and extra are the requesting user's,
 * whatever the client sent (empty ones left out, as Go's omitempty does). Without authentication
 * every request is made as kubefake's one administrator (REQUESTER), as elsewhere.
 */
function stampRequester(obj: KubeObject, request?: StrategyRequest): void {
  const spec = isPlainObject(obj.spec) ? obj.spec : (obj.spec = {});
  for (const k of ['username', 'uid', 'groups', 'extra']) delete spec[k];
  const user: UserInfo = request?.user ?? { username: REQUESTER.username, groups: [...REQUESTER.groups] };
  if (user.username) spec.username = user.username;
  if (user.uid) spec.uid = user.uid;
  if (user.groups?.length) spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) spec.extra = structuredClone(user.extra);
}

type Condition = Record<string, unknown>;

/** newCSR.Status.Conditions = oldCSR.Status.Conditions. */
function keepConditions(obj: KubeObject, old: KubeObject): void {
  const status = isPlainObject(obj.status) ? obj.status : (obj.status = {});
  const conditions = getIn(old, ['status', 'conditions']);
  if (conditions === undefined) delete status.conditions;
  else status.conditions = structuredClone(conditions);
}

const conditionsOf = (obj: KubeObject): Condition[] => {
  const list = getIn(obj, ['status', 'conditions']);
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
};

/**
 * csrApprovalStrategy: the approval changes status.conditions only (spec and status.certificate are
 * the stored ones), with populateConditionTimestamps filling the times a condition leaves out; then
 * ValidateCertificateSigningRequestApprovalUpdate (pkg/apis/certificates/validation/validation.go).
 */
function csrApprovalStrategy(now: () => Date): Strategy {
  const keep = keepFromStored('spec');
  return {
    prepareForUpdate(obj, old) {
      keep.prepareForUpdate!(obj, old);
      const certificate = getIn(old, ['status', 'certificate']);
      const status = isPlainObject(obj.status) ? obj.status : (obj.status = {});
      if (certificate === undefined) delete status.certificate;
      else status.certificate = certificate;
      populateConditionTimestamps(conditionsOf(obj), conditionsOf(old), formatTimestamp(now()));
    },
    validateUpdate: (obj, old) => validateApprovalUpdate(conditionsOf(obj), conditionsOf(old)),
  };
}

const isZeroTime = (v: unknown) => v === undefined || v === null || v === '';

/**
 * populateConditionTimestamps: a missing lastUpdateTime is now; a missing lastTransitionTime is the
 * one of the stored condition with the same type and status, else now.
 */
function populateConditionTimestamps(conditions: Condition[], old: Condition[], now: string): void {
  for (const c of conditions) {
    if (isZeroTime(c.lastUpdateTime)) c.lastUpdateTime = now;
    if (isZeroTime(c.lastTransitionTime)) {
      const same = old.find((o) => o.type === c.type && o.status === c.status && !isZeroTime(o.lastTransitionTime));
      c.lastTransitionTime = same ? same.lastTransitionTime : now;
    }
  }
}

/** The condition types whose status may only be True (trueConditionTypes). */
const TRUE_ONLY_TYPES = ['Approved', 'Denied', 'Failed'];
const ALL_STATUSES = ['False', 'True', 'Unknown'];

/**
 * The condition rules of ValidateCertificateSigningRequestApprovalUpdate, with its tolerances for
 * stored objects that already break them (empty types, duplicates, both Approved and Denied).
 * The spec checks (request signature, usages, signerName) are not ported: kubefake does not check
 * them on create either, and the approval keeps the stored spec.
 */
function validateApprovalUpdate(conditions: Condition[], old: Condition[]): FieldError[] {
  const errs: FieldError[] = [];
  const oldTypes = old.map((c) => goString(c.type));
  const allowEmptyType = oldTypes.includes('');
  const allowDuplicates = new Set(oldTypes).size !== oldTypes.length;
  const allowBoth = oldTypes.includes('Approved') && oldTypes.includes('Denied');
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    const type = goString(c.type);
    const status = goString(c.status);
    if (!allowEmptyType && type === '') errs.push(fieldError.required(`${path}.type`));
    const allowed = TRUE_ONLY_TYPES.includes(type) ? ['True'] : ALL_STATUSES;
    if (status === '') errs.push(fieldError.required(`${path}.status`));
    else if (!allowed.includes(status)) errs.push(fieldError.notSupported(`${path}.status`, status, allowed));
    if (!allowBoth) {
      if (type === 'Approved') {
        approved = true;
        if (denied) errs.push(fieldError.invalid('status.conditions', type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === 'Denied') {
        denied = true;
        if (approved) errs.push(fieldError.invalid('status.conditions', type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!allowDuplicates && seen.has(type)) errs.push(fieldError.duplicate(`${path}.type`, type));
    seen.add(type);
  });
  // Existing Approved/Denied/Failed conditions may not be removed.
  for (const t of TRUE_ONLY_TYPES) {
    const count = (list: Condition[]) => list.filter((c) => c.type === t).length;
    if (count(conditions) < count(old)) errs.push(fieldError.forbidden('status.conditions', `updates may not remove a condition of type "${t}"`));
  }
  return errs;
}
