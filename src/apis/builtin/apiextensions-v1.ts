// apiextensions.k8s.io/v1: discovery data from the generated catalogue (src/generated) and
// apiextensions-apiserver pkg/registry/customresourcedefinition/{etcd.go,strategy.go}, defaults from
// pkg/apis/apiextensions/v1/defaults.go. Only storage semantics here; establishing, naming checks
// and serving the custom resources belong to the CRD machinery.
import type { ResourceType } from '../resource-type.ts';
import type { KubeObject, StoredObject } from '../object.ts';
import { setCrdCondition } from '../../apiextensions/crd-conditions.ts';
import type { CrdValidationOptions } from '../../apiextensions/validation/index.ts';
import { formatTimestamp } from '../../go/time.ts';
import { checkWrappedPreconditions, type DeletionOutcome } from '../deletion-strategy.ts';
import type { DeleteOptions } from '../options.ts';
import { lazyCrdCelCompiler } from '../../cel/lazy.ts';
import { compileSchema, validateValue } from '../../schema/index.ts';
import { isPlainObject } from '../object.ts';
import { arrAt, builtin, child, composeStrategy, defaulting, generation, goString, objAt, setDefault } from './shared.ts';
import { keepFromStored } from './status-strategies.ts';
import { validationOnDemand } from './validation-on-demand.ts';

export function apiextensionsV1ResourceTypes(): ResourceType[] {
  return [
    builtin('apiextensions.k8s.io', 'v1', {
      kind: 'CustomResourceDefinition',
      plural: 'customresourcedefinitions',
      namespaced: false,
      subresources: ['status'],
      allowUnconditionalUpdate: false,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      loadValidation: validation.load,
      strategy: composeStrategy(
        defaulting(defaultCustomResourceDefinition),
        {
          prepareForCreate(obj) {
            obj.status = {};
            appendStoredVersion(obj);
          },
          prepareForUpdate(obj, old) {
            obj.status = structuredClone(old.status ?? {});
            appendStoredVersion(obj);
          },
          validate: (obj) => crdValidation().validateCustomResourceDefinition(obj, VALIDATION_OPTIONS),
          validateUpdate: (obj, old) => crdValidation().validateCustomResourceDefinitionUpdate(obj, old, VALIDATION_OPTIONS),
          beforeDelete: crdDelete,
        },
        generation(),
        defaulting(statusShape),
      ),
      // statusStrategy: spec from the stored CRD; its ResetObjectMetaForStatus(new, new) is a no-op,
      // so metadata changes go through.
      statusStrategy: composeStrategy(
        defaulting(defaultCustomResourceDefinition),
        keepFromStored('spec'),
        { validateUpdate: (obj, old) => crdValidation().validateCustomResourceDefinitionStatusUpdate(obj, old) },
        defaulting(statusShape),
      ),
    }),
  ];
}

// The CRD validation (apiextensions/validation, ~20 modules) loads before the first CRD write is
// validated, not with kubefake.
const validation = validationOnDemand('a CustomResourceDefinition', () => import('../../apiextensions/validation/index.ts'));
const crdValidation = () => validation.get();

/** The finalizer the apiextensions server puts on a CRD when it is deleted, until its objects are gone. */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
const CRDS = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };

/** Defaults must validate against their own schema (the schema engine answers that); CEL rules are compiled. */
const VALIDATION_OPTIONS: CrdValidationOptions = {
  checkDefault: (value, schema, path) => validateValue(compileSchema(schema), value, { basePath: path }),
  celCompiler: lazyCrdCelCompiler,
};

/**
 * customresourcedefinition REST.Delete: the first delete marks the CRD Terminating and adds the
 * cleanup finalizer; the finalizer controller deletes its objects and then releases it.
 */
function crdDelete(existing: StoredObject, options: DeleteOptions, now: Date): DeletionOutcome | undefined {
  checkWrappedPreconditions(CRDS, existing, options);
  if (existing.metadata.deletionTimestamp) return undefined;
  const crd = structuredClone(existing) as KubeObject;
  const meta = crd.metadata!;
  const stamp = formatTimestamp(now);
  meta.deletionTimestamp = stamp;
  if (!(meta.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) meta.finalizers = [...(meta.finalizers ?? []), CRD_CLEANUP_FINALIZER];
  setCrdCondition(crd, { type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' }, stamp);
  return { kind: 'update', object: crd };
}

/** SetDefaults_CustomResourceDefinition(+Spec). */
export function defaultCustomResourceDefinition(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  const names = child(spec, 'names');
  setDefault(names, 'singular', goString(names.kind).toLowerCase());
  if (goString(names.listKind) === '' && goString(names.kind) !== '') names.listKind = `${goString(names.kind)}List`;
  if (spec.conversion === undefined || spec.conversion === null) spec.conversion = { strategy: 'None' };
  const status = objAt(obj, 'status');
  if (status && (arrAt(status, 'storedVersions') ?? []).length === 0) {
    const storage = storageVersion(obj);
    if (storage !== undefined) status.storedVersions = [storage];
  }
}

function storageVersion(obj: KubeObject): string | undefined {
  const version = (arrAt(objAt(obj, 'spec'), 'versions') ?? []).find((v) => isPlainObject(v) && v.storage === true);
  return isPlainObject(version) ? goString(version.name) : undefined;
}

/** The storage version joins status.storedVersions on create and on every update. */
function appendStoredVersion(obj: KubeObject): void {
  const storage = storageVersion(obj);
  if (storage === undefined) return;
  const status = child(obj, 'status');
  const stored = (arrAt(status, 'storedVersions') ?? []).slice();
  if (!stored.includes(storage)) stored.push(storage);
  status.storedVersions = stored;
}

/** CustomResourceDefinitionStatus fields Go writes even when empty (no omitempty). */
function statusShape(obj: KubeObject): void {
  const status = child(obj, 'status');
  if (status.conditions === undefined) status.conditions = null;
  const accepted = child(status, 'acceptedNames');
  if (accepted.plural === undefined) accepted.plural = '';
  if (accepted.kind === undefined) accepted.kind = '';
  if (status.storedVersions === undefined) status.storedVersions = null;
}
