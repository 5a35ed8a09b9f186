// The field managers the simulated node and scheduler components are recorded as in managedFields.
// A real component sends no fieldManager: the apiserver takes its User-Agent up to the first `/`
// (managerOrUserAgent), and client-go's default agent starts with the binary's name
// (`kubelet/v1.36.0 (linux/amd64) kubernetes/<commit>`, `kube-scheduler/v1.36.0 ... /scheduler`).
export { CONTROLLER_MANAGER } from '../namespace-objects.ts';

/** The kubelet: node registration, node status (PatchNodeStatus), pod status (PatchPodStatus). */
export const KUBELET_MANAGER = 'kubelet';

/** kube-scheduler: the PodScheduled=False condition of a pod it could not place (util.PatchPodStatus). */
export const SCHEDULER_MANAGER = 'kube-scheduler';
