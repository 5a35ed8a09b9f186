#!/usr/bin/env node
// Generates src/generated/printer-docs.generated.ts: the column descriptions printers.go takes from
// the API types' swagger docs (`apiv1.PersistentVolumeSpec{}.SwaggerDoc()["capacity"]`), read from
// the OpenAPI definitions generated from the same Go doc comments
// (src/generated/openapi-definitions.generated.ts). A swagger doc is the OpenAPI description
// without the "Possible enum values" list openapi-gen appends. Where printers.go names an older
// group version of a type (autoscalingv2beta1, extensionsv1beta1), the served version's doc is used.
// Needs a Node that loads TypeScript (22.18+ or 24):
//
//   node scripts/gen-printer-docs.mjs [--out FILE]
//
// --out writes elsewhere (test/printer-docs-generator.test.ts regenerates into a temporary file and
// compares it with the committed module).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { OPENAPI_DEFINITIONS } = await import(join(root, 'src/generated/openapi-definitions.generated.ts'));

/** [key, OpenAPI definition, property] for each swagger doc a printer quotes. */
const WANTED = [
  ['persistentVolumeSpec.capacity', 'io.k8s.api.core.v1.PersistentVolumeSpec', 'capacity'],
  ['persistentVolumeSpec.accessModes', 'io.k8s.api.core.v1.PersistentVolumeSpec', 'accessModes'],
  ['persistentVolumeSpec.persistentVolumeReclaimPolicy', 'io.k8s.api.core.v1.PersistentVolumeSpec', 'persistentVolumeReclaimPolicy'],
  ['persistentVolumeStatus.phase', 'io.k8s.api.core.v1.PersistentVolumeStatus', 'phase'],
  ['persistentVolumeSpec.claimRef', 'io.k8s.api.core.v1.PersistentVolumeSpec', 'claimRef'],
  ['persistentVolumeStatus.reason', 'io.k8s.api.core.v1.PersistentVolumeStatus', 'reason'],
  ['persistentVolumeSpec.volumeMode', 'io.k8s.api.core.v1.PersistentVolumeSpec', 'volumeMode'],
  ['storageClass.provisioner', 'io.k8s.api.storage.v1.StorageClass', 'provisioner'],
  ['storageClass.reclaimPolicy', 'io.k8s.api.storage.v1.StorageClass', 'reclaimPolicy'],
  ['storageClass.volumeBindingMode', 'io.k8s.api.storage.v1.StorageClass', 'volumeBindingMode'],
  ['storageClass.allowVolumeExpansion', 'io.k8s.api.storage.v1.StorageClass', 'allowVolumeExpansion'],
  ['priorityClass.value', 'io.k8s.api.scheduling.v1.PriorityClass', 'value'],
  ['priorityClass.globalDefault', 'io.k8s.api.scheduling.v1.PriorityClass', 'globalDefault'],
  ['priorityClass.preemptionPolicy', 'io.k8s.api.scheduling.v1.PriorityClass', 'preemptionPolicy'],
  ['replicationControllerSpec.replicas', 'io.k8s.api.core.v1.ReplicationControllerSpec', 'replicas'],
  ['replicationControllerStatus.replicas', 'io.k8s.api.core.v1.ReplicationControllerStatus', 'replicas'],
  ['replicationControllerStatus.readyReplicas', 'io.k8s.api.core.v1.ReplicationControllerStatus', 'readyReplicas'],
  ['replicationControllerSpec.selector', 'io.k8s.api.core.v1.ReplicationControllerSpec', 'selector'],
  ['networkPolicySpec.podSelector', 'io.k8s.api.networking.v1.NetworkPolicySpec', 'podSelector'],
  ['controllerRevision.revision', 'io.k8s.api.apps.v1.ControllerRevision', 'revision'],
  ['volumeAttachmentSpec.attacher', 'io.k8s.api.storage.v1.VolumeAttachmentSpec', 'attacher'],
  ['volumeAttachmentSource.persistentVolumeName', 'io.k8s.api.storage.v1.VolumeAttachmentSource', 'persistentVolumeName'],
  ['volumeAttachmentSpec.nodeName', 'io.k8s.api.storage.v1.VolumeAttachmentSpec', 'nodeName'],
  ['volumeAttachmentStatus.attached', 'io.k8s.api.storage.v1.VolumeAttachmentStatus', 'attached'],
  ['endpointSlice.addressType', 'io.k8s.api.discovery.v1.EndpointSlice', 'addressType'],
  ['endpointSlice.ports', 'io.k8s.api.discovery.v1.EndpointSlice', 'ports'],
  ['endpointSlice.endpoints', 'io.k8s.api.discovery.v1.EndpointSlice', 'endpoints'],
  ['csiDriverSpec.attachRequired', 'io.k8s.api.storage.v1.CSIDriverSpec', 'attachRequired'],
  ['csiDriverSpec.podInfoOnMount', 'io.k8s.api.storage.v1.CSIDriverSpec', 'podInfoOnMount'],
  ['csiDriverSpec.storageCapacity', 'io.k8s.api.storage.v1.CSIDriverSpec', 'storageCapacity'],
  ['csiDriverSpec.tokenRequests', 'io.k8s.api.storage.v1.CSIDriverSpec', 'tokenRequests'],
  ['csiDriverSpec.requiresRepublish', 'io.k8s.api.storage.v1.CSIDriverSpec', 'requiresRepublish'],
  ['csiDriverSpec.volumeLifecycleModes', 'io.k8s.api.storage.v1.CSIDriverSpec', 'volumeLifecycleModes'],
  ['csiStorageCapacity.storageClassName', 'io.k8s.api.storage.v1.CSIStorageCapacity', 'storageClassName'],
  ['csiStorageCapacity.capacity', 'io.k8s.api.storage.v1.CSIStorageCapacity', 'capacity'],
  ['priorityLevelConfigurationReference.name', 'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationReference', 'name'],
  ['flowSchemaSpec.matchingPrecedence', 'io.k8s.api.flowcontrol.v1.FlowSchemaSpec', 'matchingPrecedence'],
  ['flowSchemaSpec.distinguisherMethod', 'io.k8s.api.flowcontrol.v1.FlowSchemaSpec', 'distinguisherMethod'],
  ['priorityLevelConfigurationSpec.type', 'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationSpec', 'type'],
  ['limitedPriorityLevelConfiguration.nominalConcurrencyShares', 'io.k8s.api.flowcontrol.v1.LimitedPriorityLevelConfiguration', 'nominalConcurrencyShares'],
  ['queuingConfiguration.queues', 'io.k8s.api.flowcontrol.v1.QueuingConfiguration', 'queues'],
  ['queuingConfiguration.handSize', 'io.k8s.api.flowcontrol.v1.QueuingConfiguration', 'handSize'],
  ['queuingConfiguration.queueLengthLimit', 'io.k8s.api.flowcontrol.v1.QueuingConfiguration', 'queueLengthLimit'],
  ['certificateSigningRequestSpec.signerName', 'io.k8s.api.certificates.v1.CertificateSigningRequestSpec', 'signerName'],
  ['certificateSigningRequestSpec.request', 'io.k8s.api.certificates.v1.CertificateSigningRequestSpec', 'request'],
  ['certificateSigningRequestSpec.expirationSeconds', 'io.k8s.api.certificates.v1.CertificateSigningRequestSpec', 'expirationSeconds'],
  ['certificateSigningRequestStatus.conditions', 'io.k8s.api.certificates.v1.CertificateSigningRequestStatus', 'conditions'],
  ['horizontalPodAutoscalerSpec.scaleTargetRef', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec', 'scaleTargetRef'],
  ['horizontalPodAutoscalerSpec.metrics', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec', 'metrics'],
  ['horizontalPodAutoscalerSpec.minReplicas', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec', 'minReplicas'],
  ['horizontalPodAutoscalerSpec.maxReplicas', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec', 'maxReplicas'],
  ['horizontalPodAutoscalerStatus.currentReplicas', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus', 'currentReplicas'],
  ['scaleSpec.replicas', 'io.k8s.api.autoscaling.v1.ScaleSpec', 'replicas'],
  ['scaleStatus.replicas', 'io.k8s.api.autoscaling.v1.ScaleStatus', 'replicas'],
];

const docs = {};
for (const [key, definition, property] of WANTED) {
  const description = OPENAPI_DEFINITIONS[definition]?.properties?.[property]?.description;
  if (typeof description !== 'string') throw new Error(`${definition}.${property} has no description`);
  docs[key] = description.split('\n\nPossible enum values:')[0];
}

// The source versions, as the definitions module's own header names them.
const sources = /from the Go types of ([^\n]*?)\.?\n/.exec(readFileSync(join(root, 'src/generated/openapi-definitions.generated.ts'), 'utf8'))?.[1] ?? '';
const text = `// GENERATED by scripts/gen-printer-docs.mjs from the OpenAPI definitions of ${sources}.
// Do not edit; rerun the script. The swagger docs printers.go quotes as column descriptions.

export const PRINTER_DOCS: Readonly<Record<string, string>> = ${JSON.stringify(docs, null, 2)};
`;
const outFlag = process.argv.indexOf('--out');
const out = outFlag >= 0 ? resolve(process.argv[outFlag + 1] ?? '') : join(root, 'src/generated/printer-docs.generated.ts');
writeFileSync(out, text);
console.log(`wrote ${outFlag >= 0 ? out : 'src/generated/printer-docs.generated.ts'}: ${WANTED.length} docs`);
