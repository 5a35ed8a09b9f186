// The printers added for jobs, cronjobs, events (both APIs), PVCs and role bindings, against the
// cells printers.go produces with GenerateOptions{Wide: true}.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../apis/object.ts';
import { builtinPrinter } from './builtin-printers.ts';

const now = new Date('2025-01-10T12:00:00Z');
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'default', creationTimestamp: '2025-01-10T11:55:00Z', ...extra });
const print = (group: string, plural: string, o: KubeObject) => builtinPrinter(group, plural)!.print(o, now).cells;
const names = (group: string, plural: string) => builtinPrinter(group, plural)!.columns.map((c) => (c.priority ? `${c.name}*` : c.name));
const podTemplate = { spec: { containers: [{ name: 'c', image: 'busybox' }] } };

describe('jobs', () => {
  it('has the kubectl columns', () => {
    expect(names('batch', 'jobs')).toEqual(['Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*']);
  });

  it('prints a running job: completions of the spec, duration since start', () => {
    const job = {
      metadata: meta('j'),
      spec: { completions: 3, parallelism: 1, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u' } }, template: podTemplate },
      status: { succeeded: 1, startTime: '2025-01-10T11:58:30Z' },
    };
    expect(print('batch', 'jobs', job)).toEqual(['j', 'Running', '1/3', '90s', '5m', 'c', 'busybox', 'batch.kubernetes.io/controller-uid=u']);
  });

  it('prints completed, failed, suspended and parallel jobs', () => {
    const complete = {
      metadata: meta('j'),
      spec: { completions: 1, template: podTemplate },
      status: { succeeded: 1, startTime: '2025-01-10T11:56:00Z', completionTime: '2025-01-10T11:57:05Z', conditions: [{ type: 'Complete', status: 'True' }] },
    };
    expect(print('batch', 'jobs', complete).slice(1, 4)).toEqual(['Complete', '1/1', '65s']);
    const failed = { metadata: meta('j'), spec: { parallelism: 4, template: podTemplate }, status: { conditions: [{ type: 'Failed', status: 'True' }] } };
    expect(print('batch', 'jobs', failed).slice(1, 4)).toEqual(['Failed', '0/1 of 4', '']);
    const suspended = { metadata: meta('j'), spec: { template: podTemplate }, status: { conditions: [{ type: 'Suspended', status: 'True' }] } };
    expect(print('batch', 'jobs', suspended).slice(1, 3)).toEqual(['Suspended', '0/1']);
    expect(print('batch', 'jobs', { metadata: meta('j', { deletionTimestamp: '2025-01-10T11:59:00Z' }), spec: {} })[1]).toBe('Terminating');
    expect(print('batch', 'jobs', { metadata: meta('j'), spec: {} }).at(-1)).toBe('<none>');
  });
});

describe('cronjobs', () => {
  it('prints schedule, time zone, suspend as text, active jobs and the last schedule', () => {
    expect(names('batch', 'cronjobs')).toEqual(['Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers*', 'Images*', 'Selector*']);
    const cj = {
      metadata: meta('cj'),
      spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template: podTemplate } } },
      status: { active: [{ name: 'cj-1' }], lastScheduleTime: '2025-01-10T11:59:00Z' },
    };
    expect(print('batch', 'cronjobs', cj)).toEqual(['cj', '*/5 * * * *', '<none>', 'False', 1, '60s', '5m', 'c', 'busybox', '<none>']);
    const never = { metadata: meta('cj'), spec: { schedule: '@daily', timeZone: 'Etc/UTC', jobTemplate: {} } };
    expect(print('batch', 'cronjobs', never).slice(1, 6)).toEqual(['@daily', 'Etc/UTC', '<unset>', 0, '<none>']);
  });
});

describe('events', () => {
  it('has the kubectl columns, in the wide order', () => {
    const cols = ['Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*'];
    expect(names('', 'events')).toEqual(cols);
    expect(names('events.k8s.io', 'events')).toEqual(cols);
  });

  it('prints a core event', () => {
    const ev = {
      metadata: meta('web.1'),
      involvedObject: { kind: 'Pod', name: 'web', fieldPath: 'spec.containers{c}' },
      reason: 'Pulled',
      message: ' pulled image \n',
      type: 'Normal',
      source: { component: 'kubelet', host: 'n1' },
      firstTimestamp: '2025-01-10T11:50:00Z',
      lastTimestamp: '2025-01-10T11:59:30Z',
      count: 3,
    };
    expect(print('', 'events', ev)).toEqual(['30s', 'Normal', 'Pulled', 'pod/web', 'spec.containers{c}', 'kubelet, n1', 'pulled image', '10m', 3, 'web.1']);
  });

  it('prints an events.k8s.io event from its eventTime and series, the reporting controller as source', () => {
    const ev = {
      metadata: meta('x'),
      regarding: { kind: 'Deployment' },
      reason: 'Scaled',
      note: 'scaled up',
      type: 'Normal',
      eventTime: '2025-01-10T11:58:00.000000Z',
      reportingController: 'deployment-controller',
      reportingInstance: '',
    };
    expect(print('events.k8s.io', 'events', ev)).toEqual(['2m', 'Normal', 'Scaled', 'deployment', '', 'deployment-controller', 'scaled up', '2m', 1, 'x']);
    const series = { ...ev, series: { count: 5, lastObservedTime: '2025-01-10T11:59:50.000000Z' } };
    expect(print('events.k8s.io', 'events', series)).toMatchObject({ 0: '10s', 8: 5 });
  });
});

describe('persistentvolumeclaims', () => {
  it('shows capacity and access modes only once bound', () => {
    expect(names('', 'persistentvolumeclaims')).toEqual(['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode*']);
    const pending = { metadata: meta('data'), spec: { storageClassName: 'fast', volumeMode: 'Filesystem', accessModes: ['ReadWriteOnce'] }, status: { phase: 'Pending' } };
    expect(print('', 'persistentvolumeclaims', pending)).toEqual(['data', 'Pending', '', '', '', 'fast', '<unset>', '5m', 'Filesystem']);
    const bound = {
      metadata: meta('data', { annotations: { 'volume.beta.kubernetes.io/storage-class': 'legacy' } }),
      spec: { volumeName: 'pv-1', storageClassName: 'fast' },
      status: { phase: 'Bound', capacity: { storage: '10Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'] },
    };
    expect(print('', 'persistentvolumeclaims', bound)).toEqual(['data', 'Bound', 'pv-1', '10Gi', 'RWO,RWX', 'legacy', '<unset>', '5m', '<unset>']);
  });
});

describe('role bindings', () => {
  it('prints the role and the subjects by kind', () => {
    expect(names('rbac.authorization.k8s.io', 'rolebindings')).toEqual(['Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*']);
    const rb = {
      metadata: meta('rb'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'ServiceAccount', name: 'bot', namespace: 'ci' },
        { kind: 'Group', name: 'devs' },
        { kind: 'User', name: 'bob' },
      ],
    };
    expect(print('rbac.authorization.k8s.io', 'rolebindings', rb)).toEqual(['rb', 'ClusterRole/view', '5m', 'alice, bob', 'devs', 'ci/bot']);
    expect(builtinPrinter('rbac.authorization.k8s.io', 'clusterrolebindings')!.columns[3]!.description).toBe('Users in the clusterRoleBinding');
  });

  it('leaves roles and cluster roles to the default table', () => {
    expect(builtinPrinter('rbac.authorization.k8s.io', 'roles')).toBeUndefined();
    expect(builtinPrinter('rbac.authorization.k8s.io', 'clusterroles')).toBeUndefined();
  });
});
