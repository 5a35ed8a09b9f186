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
import type { GenericRegistry } from '../generic-registry.ts';
import { validateWriteOptions, type GetOptions, type WriteOptions } from '../options.ts';

const derived = new WeakMap<ResourceType, ResourceType>();

/**
 * The type scale writes go through: the resource itself (its strategy, validation and generation
 * rules), marked `subresource: 'scale'` so the field manager records the writer as the real
 * ScaleREST's managedFields handler does. One derived type per resource type.
 */
export function scaleTypeOf(type: ResourceType): ResourceType | undefined {
  if (!type.scale) return undefined;
  let scaleType = derived.get(type);
  if (!scaleType) derived.set(type, (scaleType = { ...type, allowCreateOnUpdate: false, subresource: 'scale' }));
  return scaleType;
}

export interface ScaleWriteResult {
  object: KubeObject;
  warnings: string[];
}

/** A Scale that did not decode into the typed autoscaling/v1 Scale: Go's json error text. */
function scaleDecodeError(scale: KubeObject): string | undefined {
  const spec = scale.spec;
  if (spec !== undefined && spec !== null && !isPlainObject(spec)) return `json: cannot unmarshal ${jsonKind(spec)} into Go struct field Scale.spec of type v1.ScaleSpec`;
  const replicas = isPlainObject(spec) ? spec.replicas : undefined;
  if (replicas === undefined || replicas === null) return undefined;
  if (typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= -2147483648 && replicas <= 2147483647) return undefined;
  const kind = typeof replicas === 'number' ? `number ${goJson(replicas)}` : jsonKind(replicas);
  return `json: cannot unmarshal ${kind} into Go struct field ScaleSpec.spec.replicas of type int32`;
}

function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (isPlainObject(v)) return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
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
    if (decodeError) throw badRequest(`${SCALE_KIND} in version "v1" cannot be handled as a ${SCALE_KIND}: ${decodeError}`);
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
    return this.write(namespace, name, () => scale, options);
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
        return patched;
      },
      options,
    );
  }

  private async write(namespace: string | undefined, name: string, updated: (current: KubeObject) => KubeObject, options: WriteOptions): Promise<ScaleWriteResult> {
    // The resource's update (GuaranteedUpdate): object → old Scale → requested Scale → object.
    const result = await this.registry.patch(
      namespace,
      name,
      (current) => {
        const obj = structuredClone(current) as KubeObject;
        const scale = updated(this.scale.current(obj));
        return this.scale.write(obj, scale);
      },
      options,
    );
    return { object: this.scale.answer(result.object), warnings: result.warnings };
  }
}
