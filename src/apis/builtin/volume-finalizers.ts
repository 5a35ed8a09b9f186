// The storage protection finalizers (pkg/volume/util volumeutil.PVCProtectionFinalizer and
// PVProtectionFinalizer): put on claims and volumes by the StorageObjectInUseProtection admission
// plugin, taken off by the pvc-protection and pv-protection controllers.
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
