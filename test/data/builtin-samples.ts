// Minimal valid objects, one per built-in resource of kube-apiserver v1.36's default set, keyed
// `<group>/<version>/<resource>` (core group: `/v1/<resource>`). Each is what a real server
// accepts on create (names, required fields and cross-field rules of pkg/apis/<group>/validation);
// test/builtin-catalogue.test.ts walks the generated catalogue with them. Namespaced samples are
// created in the test's namespace `catalogue` (fields that must name it do). Names are unique across the file.
import { P256_REQUEST } from './csr.ts';

const container = { name: 'c', image: 'nginx:1.27' };
const podSpec = { containers: [container] };
const labels = { app: 'sample' };
const template = { metadata: { labels }, spec: podSpec };
const selector = { matchLabels: labels };
const roleRef = (kind: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name: 'view' });
const webhook = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  clientConfig: { url: 'https://hooks.example.com/hook' },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});

export const BUILTIN_SAMPLES: Record<string, Record<string, unknown>> = {
  '/v1/componentstatuses': {},
  '/v1/configmaps': { metadata: { name: 'sample-cm' }, data: { k: 'v' } },
  '/v1/endpoints': { metadata: { name: 'sample-ep' }, subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ port: 80 }] }] },
  '/v1/events': {
    metadata: { name: 'sample-event' },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'catalogue', apiVersion: 'v1' },
    reason: 'Sample',
    message: 'a sample event',
    type: 'Normal',
    source: { component: 'sample' },
  },
  '/v1/limitranges': { metadata: { name: 'sample-limits' }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } },
  '/v1/namespaces': { metadata: { name: 'sample-namespace' } },
  '/v1/nodes': { metadata: { name: 'sample-node' } },
  '/v1/persistentvolumeclaims': { metadata: { name: 'sample-pvc' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  '/v1/persistentvolumes': {
    metadata: { name: 'sample-pv' },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/sample' } },
  },
  '/v1/pods': { metadata: { name: 'sample-pod' }, spec: podSpec },
  '/v1/podtemplates': { metadata: { name: 'sample-podtemplate' }, template },
  '/v1/replicationcontrollers': { metadata: { name: 'sample-rc' }, spec: { replicas: 1, selector: labels, template } },
  '/v1/resourcequotas': { metadata: { name: 'sample-quota' }, spec: { hard: { pods: '10' } } },
  '/v1/secrets': { metadata: { name: 'sample-secret' }, stringData: { k: 'v' } },
  '/v1/serviceaccounts': { metadata: { name: 'sample-sa' } },
  '/v1/services': { metadata: { name: 'sample-svc' }, spec: { selector: labels, ports: [{ port: 80 }] } },
  'apiregistration.k8s.io/v1/apiservices': {
    metadata: { name: 'v1.sample.example.com' },
    spec: { group: 'sample.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 15, service: { namespace: 'default', name: 'sample-api' } },
  },
  'apps/v1/controllerrevisions': { metadata: { name: 'sample-revision' }, revision: 1, data: { spec: { template } } },
  'apps/v1/daemonsets': { metadata: { name: 'sample-ds' }, spec: { selector, template } },
  'apps/v1/deployments': { metadata: { name: 'sample-deploy' }, spec: { replicas: 1, selector, template } },
  'apps/v1/replicasets': { metadata: { name: 'sample-rs' }, spec: { replicas: 1, selector, template } },
  'apps/v1/statefulsets': { metadata: { name: 'sample-sts' }, spec: { serviceName: 'sample', selector, template } },
  'events.k8s.io/v1/events': {
    metadata: { name: 'sample-events-event' },
    eventTime: '2026-01-02T03:04:05.000000Z',
    reportingController: 'example.com/sample',
    reportingInstance: 'sample-1',
    action: 'Sampled',
    reason: 'Sample',
    type: 'Normal',
    regarding: { kind: 'Pod', name: 'p', namespace: 'catalogue', apiVersion: 'v1' },
  },
  'authentication.k8s.io/v1/selfsubjectreviews': {},
  'authentication.k8s.io/v1/tokenreviews': { spec: { token: 'not-a-real-token' } },
  'authorization.k8s.io/v1/localsubjectaccessreviews': { metadata: { namespace: 'catalogue' }, spec: { user: 'jane', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'catalogue' } } },
  'authorization.k8s.io/v1/selfsubjectaccessreviews': { spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } },
  'authorization.k8s.io/v1/selfsubjectrulesreviews': { spec: { namespace: 'default' } },
  'authorization.k8s.io/v1/subjectaccessreviews': { spec: { user: 'jane', nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
  'autoscaling/v2/horizontalpodautoscalers': {
    metadata: { name: 'sample-hpa-v2' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'sample-deploy' },
      maxReplicas: 3,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    },
  },
  'autoscaling/v1/horizontalpodautoscalers': {
    metadata: { name: 'sample-hpa-v1' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'sample-deploy' }, maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
  },
  'batch/v1/cronjobs': {
    metadata: { name: 'sample-cj' },
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { ...podSpec, restartPolicy: 'OnFailure' } } } } },
  },
  'batch/v1/jobs': { metadata: { name: 'sample-job' }, spec: { template: { spec: { ...podSpec, restartPolicy: 'Never' } } } },
  'certificates.k8s.io/v1/certificatesigningrequests': {
    metadata: { name: 'sample-csr' },
    spec: {
      // A signed PKCS#10 request (validateCSR checks the signature).
      request: P256_REQUEST,
      signerName: 'example.com/sample',
      usages: ['client auth'],
    },
  },
  'networking.k8s.io/v1/ingressclasses': { metadata: { name: 'sample-ingressclass' }, spec: { controller: 'example.com/ingress' } },
  'networking.k8s.io/v1/ingresses': {
    metadata: { name: 'sample-ingress' },
    spec: { rules: [{ host: 'sample.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'sample-svc', port: { number: 80 } } } }] } }] },
  },
  'networking.k8s.io/v1/ipaddresses': { metadata: { name: '10.96.200.7' }, spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'sample-svc' } } },
  'networking.k8s.io/v1/networkpolicies': { metadata: { name: 'sample-netpol' }, spec: { podSelector: {}, policyTypes: ['Ingress'] } },
  'networking.k8s.io/v1/servicecidrs': { metadata: { name: 'sample-cidr' }, spec: { cidrs: ['10.200.0.0/24'] } },
  'policy/v1/poddisruptionbudgets': { metadata: { name: 'sample-pdb' }, spec: { minAvailable: 1, selector } },
  'rbac.authorization.k8s.io/v1/clusterrolebindings': { metadata: { name: 'sample-crb' }, roleRef: roleRef('ClusterRole'), subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }] },
  'rbac.authorization.k8s.io/v1/clusterroles': { metadata: { name: 'sample-clusterrole' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  'rbac.authorization.k8s.io/v1/rolebindings': { metadata: { name: 'sample-rb' }, roleRef: roleRef('ClusterRole'), subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }] },
  'rbac.authorization.k8s.io/v1/roles': { metadata: { name: 'sample-role' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
  'storage.k8s.io/v1/csidrivers': { metadata: { name: 'sample.csi.example.com' }, spec: {} },
  'storage.k8s.io/v1/csinodes': { metadata: { name: 'sample-node' }, spec: { drivers: [] } },
  'storage.k8s.io/v1/csistoragecapacities': { metadata: { name: 'sample-capacity' }, storageClassName: 'sample-sc' },
  'storage.k8s.io/v1/storageclasses': { metadata: { name: 'sample-sc' }, provisioner: 'example.com/sample' },
  'storage.k8s.io/v1/volumeattachments': {
    metadata: { name: 'sample-attachment' },
    spec: { attacher: 'sample.csi.example.com', nodeName: 'sample-node', source: { persistentVolumeName: 'sample-pv' } },
  },
  'storage.k8s.io/v1/volumeattributesclasses': { metadata: { name: 'sample-vac' }, driverName: 'sample.csi.example.com', parameters: { iops: '100' } },
  'admissionregistration.k8s.io/v1/mutatingadmissionpolicies': {
    metadata: { name: 'sample-map' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"sampled": "true"}}}' } }],
      reinvocationPolicy: 'Never',
    },
  },
  'admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings': { metadata: { name: 'sample-mapb' }, spec: { policyName: 'sample-map' } },
  'admissionregistration.k8s.io/v1/mutatingwebhookconfigurations': { metadata: { name: 'sample-mwc' }, webhooks: [webhook('sample.mutating.example.com')] },
  'admissionregistration.k8s.io/v1/validatingadmissionpolicies': {
    metadata: { name: 'sample-vap' },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      validations: [{ expression: 'true' }],
    },
  },
  'admissionregistration.k8s.io/v1/validatingadmissionpolicybindings': { metadata: { name: 'sample-vapb' }, spec: { policyName: 'sample-vap', validationActions: ['Deny'] } },
  'admissionregistration.k8s.io/v1/validatingwebhookconfigurations': { metadata: { name: 'sample-vwc' }, webhooks: [webhook('sample.validating.example.com')] },
  'apiextensions.k8s.io/v1/customresourcedefinitions': {
    metadata: { name: 'samples.catalogue.example.com' },
    spec: {
      group: 'catalogue.example.com',
      names: { plural: 'samples', singular: 'sample', kind: 'Sample', listKind: 'SampleList' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
    },
  },
  'scheduling.k8s.io/v1/priorityclasses': { metadata: { name: 'sample-priority' }, value: 1000, description: 'sample' },
  'coordination.k8s.io/v1/leases': { metadata: { name: 'sample-lease' }, spec: { holderIdentity: 'sample', leaseDurationSeconds: 15 } },
  'node.k8s.io/v1/runtimeclasses': { metadata: { name: 'sample-runtime' }, handler: 'runc' },
  'discovery.k8s.io/v1/endpointslices': {
    metadata: { name: 'sample-slice', labels: { 'kubernetes.io/service-name': 'sample-svc' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.1.2.3'] }],
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  },
  'resource.k8s.io/v1/deviceclasses': { metadata: { name: 'sample-deviceclass' }, spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] } },
  'resource.k8s.io/v1/resourceclaims': { metadata: { name: 'sample-claim' }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'sample-deviceclass' } }] } } },
  'resource.k8s.io/v1/resourceclaimtemplates': {
    metadata: { name: 'sample-claimtemplate' },
    spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'sample-deviceclass' } }] } } },
  },
  'resource.k8s.io/v1/resourceslices': {
    metadata: { name: 'sample-slice-gpu' },
    spec: { driver: 'gpu.example.com', nodeName: 'sample-node', pool: { name: 'sample-node', generation: 1, resourceSliceCount: 1 }, devices: [{ name: 'gpu-0' }] },
  },
  'flowcontrol.apiserver.k8s.io/v1/flowschemas': {
    metadata: { name: 'sample-flowschema' },
    spec: {
      priorityLevelConfiguration: { name: 'sample-plc' },
      matchingPrecedence: 1000,
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }],
    },
  },
  'flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations': {
    metadata: { name: 'sample-plc' },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Reject' } } },
  },
};
