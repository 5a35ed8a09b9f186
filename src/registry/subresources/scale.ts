// The scale subresource's REST (ScaleREST of the built-in workloads and of custom resources): a
// GET reads the Scale out of the object; an update or patch turns the stored object into its Scale,
// applies the request to that Scale, writes the replicas back into the object and runs the
// object's own update pipeline (its strategy, validation and generation rules).
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { SCALE_API_VERSION, SCALE_KIND, type ScaleSubresource } from '../../apis/scale.ts';
import { badRequest } from '../../errors/status-error.ts';
import { invalidPatch } from '../../patch/errors.ts';
import { goJson } from '../../errors/go-format.ts';
import { goJsonValueKind } from '../../go/json.ts';
import type { GenericRegistry } from '../generic-registry.ts';
import { createSubresourceTypeOf } from './create-subresource-type.ts';
import { derivedType } from './derived-type.ts';
import { fieldValidationMode, validateWriteOptions, type GetOptions, type WriteOptions } from '../../apis/options.ts';
import { applyStrictWarnings, type ApplyPatch } from '../../apply/apply-patch.ts';
import { applyScale, managerOrUserAgent, scaleFieldManagerFor } from '../../apply/registry-hooks.ts';
import { ScaleHandler } from '../../apply/scale-handler.ts';

const SCALE_GVK = { group: 'autoscaling', version: 'v1', kind: SCALE_KIND };

/**
 * The type scale writes go through: the resource itself (its strategy, validation and generation
 * rules), marked `subresource: 'scale'`. Its managedFields are the ScaleHandler's (the registry's
 * own field manager does not run for scale writes). One derived type per resource type.
 */
export function scaleTypeOf(type: ResourceType): ResourceType | undefined {
  const scale = type.scale;
  if (!scale) return undefined;
  return derivedType(type, 'scale', () => {
    // Admission sees the Scale (kind autoscaling/v1 Scale) of the resource, not the object.
    const admissionView = {
      type: createSubresourceTypeOf(type, 'scale', SCALE_GVK),
      kind: SCALE_GVK,
      of: (obj: KubeObject) => scale.current(obj),
      apply: (obj: KubeObject, view: KubeObject) => void scale.write(obj, view),
    };
    return { ...type, allowCreateOnUpdate: false, subresource: 'scale', admissionView };
  });
}

export interface ScaleWriteResult {
  object: KubeObject;
  warnings: string[];
}

/**
 * A Scale that did not decode into the typed autoscaling/v1 Scale: Go's json error text for the
 * first field, in document order, whose JSON type does not fit (encoding/json keeps the first).
 */
function scaleDecodeError(scale: KubeObject): string | undefined {
  for (const key of Object.keys(scale)) {
    const value = scale[key];
    if (value === null) continue;
    if (key === 'metadata' && !isPlainObject(value)) return `json: cannot unmarshal ${goJsonValueKind(value)} into Go struct field Scale.metadata of type v1.ObjectMeta`;
    if (key === 'spec') {
      const error = scaleSpecDecodeError(value);
      if (error) return error;
    }
  }
  return undefined;
}

function scaleSpecDecodeError(spec: unknown): string | undefined {
  if (!isPlainObject(spec)) return `json: cannot unmarshal ${goJsonValueKind(spec)} into Go struct field Scale.spec of type v1.ScaleSpec`;
  const replicas = spec.replicas;
  if (replicas === undefined || replicas === null) return undefined;
  if (typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= -2147483648 && replicas <= 2147483647) return undefined;
  const kind = typeof replicas === 'number' ? `number ${goJson(replicas)}` : goJsonValueKind(replicas);
  return `json: cannot unmarshal ${kind} into Go struct field ScaleSpec.spec.replicas of type int32`;
}

const cannotHandle = (error: string) => badRequest(`${SCALE_KIND} in version "v1" cannot be handled as a ${SCALE_KIND}: ${error}`);

/**
 * What update.go does with the strict decoder's findings on a Scale body (duplicate fields):
 * Strict fails the decode (400), Warn answers them as warnings, Ignore drops them.
 */
function strictDecodeWarnings(options: WriteOptions): string[] {
  const found = options.strictDecodeErrors ?? [];
  const mode = fieldValidationMode(options.fieldValidation);
  if (!found.length || mode === 'Ignore') return [];
  if (mode === 'Strict') throw cannotHandle(`strict decoding error: ${found.join(', ')}`);
  return found;
}

export class ScaleRegistry {
  private readonly registry: GenericRegistry;
  private readonly scale: ScaleSubresource;

  constructor(registry: GenericRegistry, scale: ScaleSubresource) {
    this.registry = registry;
    this.scale = scale;
  }

  async get(namespace: string | undefined, name: string, options: GetOptions = {}): Promise<KubeObject> {
    return this.scale.read(await this.registry.get(namespace, name, options));
  }

  /**
   * PUT of a Scale. The handler's checks on the body come first (apiVersion, namespace, name as
   * update.go makes them), then the object is updated through the resource's own pipeline.
   */
  async update(namespace: string | undefined, name: string, body: KubeObject, options: WriteOptions = {}): Promise<ScaleWriteResult> {
    validateWriteOptions('UpdateOptions', options);
    const decodeError = scaleDecodeError(body);
    if (decodeError) throw cannotHandle(decodeError);
    const warnings = strictDecodeWarnings(options);
    if (body.apiVersion && body.apiVersion !== SCALE_API_VERSION) {
      throw badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${SCALE_API_VERSION})`);
    }
    const scale = structuredClone(body);
    const meta = isPlainObject(scale.metadata) ? scale.metadata : (scale.metadata = {});
    // rest.EnsureObjectNamespaceMatchesRequestNamespace, then checkName.
    if (!meta.namespace) meta.namespace = namespace;
    else if (meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    if (!meta.name) throw badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
    if (meta.name !== name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
    // The Scale body's findings were answered here; the object written has none of its own.
    const result = await this.write(namespace, name, (current) => this.recordUpdate(current, scale, options), { ...options, strictDecodeErrors: undefined });
    return { object: result.object, warnings: [...warnings, ...result.warnings] };
  }

  /**
   * PATCH of a Scale: `patch` turns the current Scale into the patched one (it throws the patch
   * type's own errors) and is re-run on the new state when a concurrent write wins.
   */
  async patch(namespace: string | undefined, name: string, patch: (current: KubeObject) => Record<string, unknown>, options: WriteOptions = {}): Promise<ScaleWriteResult> {
    validateWriteOptions('PatchOptions', options);
    return this.write(
      namespace,
      name,
      (current) => {
        const patched = patch(current) as KubeObject;
        // The patched JSON is decoded into the typed Scale; a failure is the patcher's 422.
        const decodeError = scaleDecodeError(patched);
        if (decodeError) throw invalidPatch(goJson(patched), decodeError);
        return this.recordUpdate(current, patched, options);
      },
      options,
    );
  }

  /** Server-side apply of a Scale: the Scale's own field manager merges it, with conflicts on `.spec.replicas`. */
  async apply(namespace: string | undefined, name: string, patch: ApplyPatch, options: WriteOptions = {}): Promise<ScaleWriteResult> {
    validateWriteOptions('PatchOptions', options, true);
    const result = await this.write(
      namespace,
      name,
      (current) => {
        const applied = applyScale(this.registry.clock, current, patch, options.fieldManager ?? '') as KubeObject;
        const decodeError = scaleDecodeError(applied);
        if (decodeError) throw invalidPatch(goJson(applied), decodeError);
        return applied;
      },
      options,
    );
    return { ...result, warnings: [...applyStrictWarnings(patch), ...result.warnings] };
  }

  /** The Scale field manager's Update: the writer owns what it changed in the Scale. */
  private recordUpdate(current: KubeObject, next: KubeObject, options: WriteOptions): KubeObject {
    const manager = managerOrUserAgent(options.fieldManager, options.userAgent);
    return scaleFieldManagerFor(this.registry.clock).update(current as Record<string, unknown>, next as Record<string, unknown>, manager) as KubeObject;
  }

  private async write(namespace: string | undefined, name: string, updated: (current: KubeObject) => KubeObject, options: WriteOptions): Promise<ScaleWriteResult> {
    // The resource's update (GuaranteedUpdate): object → old Scale → requested Scale → object. The
    // Scale carries the owners of the replicas path (ScaleHandler.ToSubresource) and its new owners
    // go back into the object's managedFields (ToParent), so the object's own field manager is not run.
    // The caller validated the request's options, as the PUT or PATCH handler does.
    const result = await this.registry.patchValidated(
      namespace,
      name,
      (current) => {
        const obj = structuredClone(current) as KubeObject;
        const { groupVersion, mappings } = this.scale.managedFields;
        const handler = new ScaleHandler(obj.metadata?.managedFields, groupVersion, mappings);
        const old = this.scale.current(obj);
        const owners = handler.toSubresource();
        if (owners) old.metadata = { ...old.metadata, managedFields: owners };
        const scale = updated(old);
        const written = this.scale.write(obj, scale);
        const managedFields = handler.toParent(scale.metadata?.managedFields);
        if (managedFields) written.metadata!.managedFields = managedFields;
        else delete written.metadata!.managedFields;
        return written;
      },
      options,
      true,
    );
    return { object: this.scale.answer(result.object), warnings: result.warnings };
  }
}
