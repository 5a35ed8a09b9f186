// DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault/admission.go with
// pkg/volume/util GetDefaultClass, v1.36): a PersistentVolumeClaim created without a class (no
// spec.storageClassName, not even "", and no beta class annotation) gets the default
// StorageClass's name. Several defaults: the newest wins, then the first by name.
import type { KubeObject } from '../apis/object.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import { isResource } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

const IS_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_IS_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/**
 * GetDefaultClass's choice among the classes marked default (StorageClasses here, IngressClasses
 * in defaultingressclass): the newest by creationTimestamp, then the first by name.
 */
export function newestDefault(classes: KubeObject[]): KubeObject | undefined {
  const created = (c: KubeObject) => Date.parse(c.metadata?.creationTimestamp ?? '') || 0;
  const name = (c: KubeObject) => c.metadata?.name ?? '';
  return [...classes].sort((a, b) => created(b) - created(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0))[0];
}

/** util.GetDefaultClass over the stored StorageClasses. */
export function defaultStorageClass(services: AdmissionServices): KubeObject | undefined {
  return newestDefault(
    services.store
      .list(storageKeyOf({ group: 'storage.k8s.io', plural: 'storageclasses' }), '')
      .map((e) => e.object)
      .filter((sc) => sc.metadata.annotations?.[IS_DEFAULT] === 'true' || sc.metadata.annotations?.[BETA_IS_DEFAULT] === 'true'),
  );
}

export function defaultStorageClassPlugin(services: AdmissionServices): AdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    handles: (op) => op === 'CREATE',
    admit(attributes) {
      if (!isResource(attributes, '', 'persistentvolumeclaims') || attributes.subresource !== '' || !attributes.object) return;
      const pvc = attributes.object;
      const spec = (pvc.spec ??= {}) as { storageClassName?: string | null };
      // helper.PersistentVolumeClaimHasClass.
      if (pvc.metadata?.annotations?.[BETA_CLASS_ANNOTATION] !== undefined || (spec.storageClassName !== undefined && spec.storageClassName !== null)) return;
      const def = defaultStorageClass(services);
      if (def?.metadata?.name) spec.storageClassName = def.metadata.name;
    },
  };
}
