// The ValidatingAdmissionPolicy status controller (pkg/controller/validatingadmissionpolicystatus):
// for a policy whose generation is ahead of status.observedGeneration, type-check its expressions
// against the schemas of the kinds it matches and write status.observedGeneration and
// status.typeChecking (the expression warnings; `{}` when there are none). It writes no conditions,
// as the real one. kubefake writes the status directly, without the controller's managedFields
// entry (upstream: a server-side apply of status by `validatingadmissionpolicy-status-controller`).
// CEL and the OpenAPI definitions (the schemas) are loaded on the first policy, one after the other.
import { isPlainObject, type KubeObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { schemaDeclType, type DeclType } from '../cel/decl-type.ts';
import type { TypeResolver } from '../cel/admission-policy/type-checking.ts';
import type { StoreEvent } from '../storage/versioned-store.ts';
import { QueueController } from './queue-controller.ts';

const VALIDATING_POLICIES_BUCKET = 'admissionregistration.k8s.io/validatingadmissionpolicies';

export class ValidatingAdmissionPolicyStatusController extends QueueController {
  readonly name = 'validatingadmissionpolicy-status-controller';

  protected observe(event: StoreEvent): void {
    if (event.bucket === VALIDATING_POLICIES_BUCKET && event.type !== 'DELETED') this.queue.add(event.key);
  }

  private policyType(): ResourceType {
    return this.ctx.catalog.find('admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies')!;
  }

  private resolver(resolvedKindSchema: (type: ResourceType) => ReturnType<typeof import('../apis/openapi/resolved-schema.ts').resolvedKindSchema>): TypeResolver {
    const catalog = this.ctx.catalog;
    const decls = new Map<ResourceType, DeclType | undefined>();
    return {
      kindsFor: (group, version, resource) => {
        const type = catalog.find(group, version, resource);
        return type ? [{ group, version, kind: type.kind }] : [];
      },
      declType: (gvk) => {
        const type = catalog.findKind(gvk.group, gvk.version, gvk.kind);
        if (!type) return undefined;
        if (!decls.has(type)) decls.set(type, schemaDeclType(resolvedKindSchema(type), true));
        return decls.get(type);
      },
    };
  }

  protected async sync(name: string): Promise<void> {
    const policy = this.ctx.store.get(VALIDATING_POLICIES_BUCKET, name);
    if (!policy) return;
    const generation = policy.metadata.generation ?? 0;
    const status = isPlainObject(policy.status) ? policy.status : {};
    if (generation <= (typeof status.observedGeneration === 'number' ? status.observedGeneration : 0)) return;
    const { typeCheckPolicy } = await import('../cel/admission-policy/type-checking.ts');
    const { resolvedKindSchema } = await import('../apis/openapi/resolved-schema.ts');
    const warnings = typeCheckPolicy(policy, this.resolver(resolvedKindSchema));
    this.ctx.registryFor(this.policyType()).systemUpdate(
      undefined,
      name,
      (o: KubeObject) => {
        if ((o.metadata?.generation ?? 0) !== generation) return false; // a newer spec is queued behind this
        o.status = { ...(isPlainObject(o.status) ? o.status : {}), observedGeneration: generation, typeChecking: warnings.length ? { expressionWarnings: warnings } : {} };
        return true;
      },
      policy.metadata.uid,
    );
  }
}
