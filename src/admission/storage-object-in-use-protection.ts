// StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection/
// admission.go, v1.36), mutating, on create: every PersistentVolumeClaim gets the
// kubernetes.io/pvc-protection finalizer and every PersistentVolume kubernetes.io/pv-protection,
// unless it has it already. The pvc-protection and pv-protection controllers
// (controllers/storage-protection.ts) remove it once no pod uses the claim / no claim is bound to
// the volume, so a deleted claim or volume goes away then.
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../apis/builtin/volume-finalizers.ts';
import type { AdmissionPlugin } from '../registry/admission.ts';
import { isResource } from './forbidden.ts';

export function storageObjectInUseProtection(): AdmissionPlugin {
  return {
    name: 'StorageObjectInUseProtection',
    handles: (op) => op === 'CREATE',
    admit(a) {
      if (a.subresource !== '' || !a.object) return;
      const finalizer = isResource(a, '', 'persistentvolumeclaims') ? PVC_PROTECTION_FINALIZER : isResource(a, '', 'persistentvolumes') ? PV_PROTECTION_FINALIZER : undefined;
      if (!finalizer) return;
      const meta = (a.object.metadata ??= {});
      const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
      if (!finalizers.includes(finalizer)) meta.finalizers = [...finalizers, finalizer];
    },
  };
}
