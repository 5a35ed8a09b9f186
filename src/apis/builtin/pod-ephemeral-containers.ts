// pods/ephemeralcontainers (pkg/registry/core/pod/strategy.go podEphemeralContainersStrategy,
// v1.36): an update keeps the stored pod but for spec.ephemeralContainers
// (dropNonEphemeralContainerUpdates: spec, status and the metadata ResetObjectMetaForStatus keeps
// come from the stored pod), bumps the generation when the spec changed, then
// ValidatePodEphemeralContainersUpdate (pkg/apis/core/validation/validation.go) validates the pod
// as a pod and refuses static pods and any removal or change of an existing ephemeral container.
// The change's text ends with a go-cmp diff of the two containers, printed here as a flat
// core.EphemeralContainer (Go nests the embedded EphemeralContainerCommon in its diff).
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { goQuote } from '../../errors/go-format.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import type { Strategy } from '../resource-type.ts';
import { goStructDiff } from './go-struct-diff.ts';
import { semanticEqual } from './shared.ts';
import { resetObjectMetaForStatus } from './status-strategies.ts';
import { validateContainersOnlyForPod, validatePodSpec } from './pod-validation.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (isPlainObject(v) ? v : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
const PATH = 'spec.ephemeralContainers';

/** PrepareForUpdate: dropNonEphemeralContainerUpdates, then updatePodGeneration. */
function prepareEphemeralContainers(pod: KubeObject, old: KubeObject): void {
  const next: Json = structuredClone(obj(old.spec));
  const ephemeral = obj(pod.spec).ephemeralContainers;
  if (ephemeral === undefined || ephemeral === null) delete next.ephemeralContainers;
  else next.ephemeralContainers = ephemeral;
  pod.spec = next;
  pod.status = structuredClone(old.status);
  resetObjectMetaForStatus(pod, old);
  if (!semanticEqual(pod.spec, old.spec)) pod.metadata!.generation = (typeof old.metadata?.generation === 'number' ? old.metadata.generation : 0) + 1;
}

/** ValidatePodEphemeralContainersUpdate, after the registry's metadata checks. */
function validateEphemeralContainersUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs = [...validatePodSpec(pod.spec, 'spec'), ...validateContainersOnlyForPod(pod.spec)];
  // Static pods don't support ephemeral containers (kubernetes#113935).
  if (old.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [fieldError.forbidden('', 'static pods do not support ephemeral containers')];
  // Order isn't preserved by patch, so each existing container is looked up by name.
  const byName = new Map(list(obj(pod.spec).ephemeralContainers).map((c) => [c.name, c]));
  for (const before of list(obj(old.spec).ephemeralContainers)) {
    const after = byName.get(before.name);
    if (!after) errs.push(fieldError.forbidden(PATH, `existing ephemeral containers ${goQuote(String(before.name ?? ''))} may not be removed\n`));
    else if (!semanticEqual(before, after)) {
      const diff = goStructDiff('core.EphemeralContainer', 'core.v1.EphemeralContainer', before, after);
      errs.push(fieldError.forbidden(PATH, `existing ephemeral containers ${goQuote(String(before.name ?? ''))} may not be changed\n${diff}`));
    }
  }
  return errs;
}

export const podEphemeralContainersStrategy: Strategy = { prepareForUpdate: prepareEphemeralContainers, validateUpdate: validateEphemeralContainersUpdate };
