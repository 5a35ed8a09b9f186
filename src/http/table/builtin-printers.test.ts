import { describe, expect, it } from 'vitest';
import { builtinPrinter } from './builtin-printers.ts';
import type { KubeObject } from '../../apis/object.ts';

const now = new Date('2025-01-10T12:00:00Z');
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'default', creationTimestamp: '2025-01-10T11:55:00Z', ...extra });
const print = (group: string, plural: string, o: KubeObject) => builtinPrinter(group, plural)!.print(o, now);
const names = (group: string, plural: string) => builtinPrinter(group, plural)!.columns.map((c) => (c.priority ? `${c.name}*` : c.name));

describe('pods', () => {
  it('has the kubectl columns, the wide ones at priority 1', () => {
    expect(names('', 'pods')).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*']);
  });

  it('prints a fresh pending pod', () => {
    const pod = { metadata: meta('web'), spec: { containers: [{ name: 'c', image: 'nginx' }] }, status: { phase: 'Pending', qosClass: 'BestEffort' } };
    expect(print('', 'pods', pod)).toEqual({ cells: ['web', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>'] });
  });

  it('prints a running pod with restarts, IP, node and readiness gates', () => {
    const pod = {
      metadata: meta('web'),
      spec: { nodeName: 'n1', containers: [{ name: 'a' }, { name: 'b' }], readinessGates: [{ conditionType: 'x/ok' }] },
      status: {
        phase: 'Running',
        podIP: '10.0.0.7',
        podIPs: [{ ip: '10.0.0.7' }],
        conditions: [{ type: 'Ready', status: 'True' }, { type: 'x/ok', status: 'True' }],
        containerStatuses: [
          { name: 'a', ready: true, restartCount: 2, state: { running: {} }, lastState: { terminated: { exitCode: 1, finishedAt: '2025-01-10T11:58:00Z' } } },
          { name: 'b', ready: false, restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff' } } },
        ],
      },
    };
    expect(print('', 'pods', pod).cells).toEqual(['web', '1/2', 'CrashLoopBackOff', '2 (2m ago)', '5m', '10.0.0.7', 'n1', '<none>', '1/1']);
  });

  it('prints init progress, completion and termination', () => {
    const init = {
      metadata: meta('i'),
      spec: { initContainers: [{ name: 'setup' }], containers: [{ name: 'c' }] },
      status: { phase: 'Pending', initContainerStatuses: [{ name: 'setup', state: { waiting: { reason: 'PodInitializing' } } }] },
    };
    expect(print('', 'pods', init).cells.slice(1, 3)).toEqual(['0/1', 'Init:0/1']);
    const done = { metadata: meta('d'), spec: { containers: [{ name: 'c' }] }, status: { phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] } };
    expect(print('', 'pods', done)).toMatchObject({
      cells: ['d', '0/1', 'Completed', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
      conditions: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
    });
    const deleting = { metadata: meta('t', { deletionTimestamp: '2025-01-10T12:00:00Z' }), spec: { containers: [{ name: 'c' }] }, status: { phase: 'Running' } };
    expect(print('', 'pods', deleting).cells[2]).toBe('Terminating');
  });
});

describe('workloads', () => {
  const deployment = {
    metadata: meta('web'),
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] }, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1' }, { name: 'side', image: 'busybox' }] } } },
    status: {},
  };

  it('prints deployments: READY 0/3, UP-TO-DATE, AVAILABLE, then the wide cells', () => {
    expect(names('apps', 'deployments')).toEqual(['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*']);
    expect(print('apps', 'deployments', deployment).cells).toEqual(['web', '0/3', 0, 0, '5m', 'nginx,side', 'nginx:1,busybox', 'app=web,tier in (a,b)']);
  });

  it('prints replicasets, statefulsets and daemonsets', () => {
    expect(print('apps', 'replicasets', { ...deployment, status: { replicas: 3, readyReplicas: 1 } }).cells).toEqual(['web', 3, 3, 1, '5m', 'nginx,side', 'nginx:1,busybox', 'app=web,tier in (a,b)']);
    expect(print('apps', 'statefulsets', { ...deployment, status: { readyReplicas: 2 } }).cells).toEqual(['web', '2/3', '5m', 'nginx,side', 'nginx:1,busybox']);
    expect(print('apps', 'daemonsets', { metadata: meta('ds'), spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [] } } }, status: {} }).cells).toEqual(['ds', 0, 0, 0, 0, 0, '<none>', '5m', '', '', 'a=b']);
  });
});

describe('core kinds', () => {
  it('prints services', () => {
    expect(names('', 'services')).toEqual(['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*']);
    const svc = { metadata: meta('web'), spec: { type: 'ClusterIP', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }], selector: { b: '2', a: '1' } } };
    expect(print('', 'services', svc).cells).toEqual(['web', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP,53/UDP', '5m', 'a=1,b=2']);
    const lb = { metadata: meta('lb'), spec: { type: 'LoadBalancer', clusterIPs: ['10.96.0.11'], ports: [{ port: 443, nodePort: 30443, protocol: 'TCP' }] }, status: { loadBalancer: {} } };
    expect(print('', 'services', lb).cells).toEqual(['lb', 'LoadBalancer', '10.96.0.11', '<pending>', '443:30443/TCP', '5m', '<none>']);
    const ext = { metadata: meta('ext'), spec: { type: 'ExternalName', externalName: 'example.com' } };
    expect(print('', 'services', ext).cells).toEqual(['ext', 'ExternalName', '<none>', 'example.com', '<none>', '5m', '<none>']);
  });

  it('prints configmaps, secrets, namespaces, serviceaccounts, endpoints', () => {
    expect(print('', 'configmaps', { metadata: meta('cm'), data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }).cells).toEqual(['cm', 3, '5m']);
    expect(print('', 'secrets', { metadata: meta('s'), type: 'Opaque', data: { p: 'cA==' } }).cells).toEqual(['s', 'Opaque', 1, '5m']);
    expect(print('', 'namespaces', { metadata: meta('ns'), status: { phase: 'Active' } }).cells).toEqual(['ns', 'Active', '5m']);
    expect(print('', 'serviceaccounts', { metadata: meta('default') }).cells).toEqual(['default', 0, '5m']);
    const ep = { metadata: meta('ep'), subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }, { ip: '10.0.0.3' }, { ip: '10.0.0.4' }], ports: [{ port: 80 }] }] };
    expect(print('', 'endpoints', ep).cells).toEqual(['ep', '10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 1 more...', '5m']);
    expect(print('', 'endpoints', { metadata: meta('none') }).cells).toEqual(['none', '<none>', '5m']);
  });

  it('prints nodes', () => {
    const node = {
      metadata: meta('n1', { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'x' } }),
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '172.18.0.2' }], nodeInfo: { kubeletVersion: 'v1.36.0' } },
    };
    expect(print('', 'nodes', node).cells).toEqual(['n1', 'Ready,SchedulingDisabled', 'control-plane,x', '5m', 'v1.36.0', '172.18.0.2', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });

  it('has no printer for kinds the server prints with the default table', () => {
    expect(builtinPrinter('rbac.authorization.k8s.io', 'roles')).toBeUndefined();
    expect(builtinPrinter('apiextensions.k8s.io', 'customresourcedefinitions')).toBeUndefined();
  });
});
