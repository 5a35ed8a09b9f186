// DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass/admission.go, v1.36): an
// Ingress created with neither spec.ingressClassName nor the kubernetes.io/ingress.class
// annotation gets the IngressClass annotated ingressclass.kubernetes.io/is-default-class: "true"
// (the newest of several, then the first by name).
import { storageKeyOf } from '../apis/resource-type.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import { newestDefault } from './default-storage-class.ts';
import { isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const IS_DEFAULT = 'ingressclass.kubernetes.io/is-default-class';
const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

export function defaultIngressClass(services: AdmissionServices): AdmissionPlugin {
  return {
    name: 'DefaultIngressClass',
    handles: (op) => op === 'CREATE',
    admit(attributes) {
      if (!isResource(attributes, 'networking.k8s.io', 'ingresses') || attributes.subresource !== '' || !attributes.object) return;
      const ingress = attributes.object;
      const spec = (ingress.spec ??= {}) as { ingressClassName?: string | null };
      if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) return;
      if (ingress.metadata?.annotations && Object.hasOwn(ingress.metadata.annotations, CLASS_ANNOTATION)) return;
      const classes = services.store
        .list(storageKeyOf({ group: 'networking.k8s.io', plural: 'ingressclasses' }), '')
        .map((e) => e.object)
        .filter((c) => c.metadata.annotations?.[IS_DEFAULT] === 'true');
      const def = newestDefault(classes);
      if (def?.metadata?.name) spec.ingressClassName = def.metadata.name;
    },
  };
}
