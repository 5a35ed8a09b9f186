"""Walks the Python `kubernetes` client (Debian's python3-kubernetes) through CRUD of the common
built-in kinds against a kubefake listener, and prints one JSON report on stdout that
test/python-client.test.ts asserts on.

Usage: crud_walk.py KUBECONFIG NAMESPACE

The report holds, per step, the HTTP status code the client saw; the raw body of the last write of
every object (read again with _preload_content=False, so the test can compare it with what the
cluster stored); a few fields read back through the client's typed models (so a model the client
could not decode fails the walk); the watch events; and the ApiException of the error paths.
"""
import json
import sys
import threading

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
NS = sys.argv[2]
api = client.ApiClient()
# A second client whose PATCHes are JSON merge patches: default headers override the per-call
# Content-Type the generated methods pick (strategic merge for a dict, JSON patch for a list).
merge_api = client.ApiClient()
merge_api.set_default_header('Content-Type', 'application/merge-patch+json')

core, core_m = client.CoreV1Api(api), client.CoreV1Api(merge_api)
apps, apps_m = client.AppsV1Api(api), client.AppsV1Api(merge_api)
batch, batch_m = client.BatchV1Api(api), client.BatchV1Api(merge_api)
net, net_m = client.NetworkingV1Api(api), client.NetworkingV1Api(merge_api)
rbac, rbac_m = client.RbacAuthorizationV1Api(api), client.RbacAuthorizationV1Api(merge_api)

report = {'steps': [], 'objects': {}, 'typed': {}, 'watch': [], 'errors': {}}


def step(label, fn, *args, **kwargs):
    """Calls a *_with_http_info method, records its status code, returns the decoded object."""
    data, status, _headers = fn(*args, **kwargs)
    report['steps'].append([label, status])
    return data


def raw(label, fn, *args, **kwargs):
    """The raw JSON body of a read, as the server sent it."""
    resp = fn(*args, _preload_content=False, **kwargs)
    report['objects'][label] = json.loads(resp.data)


def meta(name, labels=None):
    return client.V1ObjectMeta(name=name, labels=labels)


def walk(kind, create, read, lst, patch, patch_m, replace, delete, body, sm_patch, merge_patch, mutate, raw_read):
    """create, read, list, strategic merge patch, JSON merge patch, replace, raw read, delete."""
    name = body.metadata.name
    step(kind + ' create', create, body=body)
    step(kind + ' read', read, name)
    items = step(kind + ' list', lst, label_selector='walk=' + kind.lower()).items
    report['typed'][kind + ' listed'] = [i.metadata.name for i in items]
    step(kind + ' patch strategic', patch, name, sm_patch)
    step(kind + ' patch merge', patch_m, name, merge_patch)
    current = read(name)[0]
    mutate(current)
    replaced = step(kind + ' replace', replace, name, current)
    report['typed'][kind] = api.sanitize_for_serialization(replaced.metadata.labels)
    raw(kind, raw_read, name)
    step(kind + ' delete', delete, name)
    return replaced


def namespaced(api_obj, api_m, suffix):
    """The eight methods of one namespaced kind, bound to NS."""
    def bind(obj, verb):
        fn = getattr(obj, verb + '_namespaced_' + suffix + '_with_http_info')
        if verb in ('create', 'list'):
            return lambda **kw: fn(NS, **kw)
        if verb in ('patch', 'replace'):
            return lambda name, body: fn(name, NS, body)
        return lambda name: fn(name, NS)
    raw_read = lambda name, **kw: getattr(api_obj, 'read_namespaced_' + suffix)(name, NS, **kw)
    return dict(create=bind(api_obj, 'create'), read=bind(api_obj, 'read'), lst=bind(api_obj, 'list'),
                patch=bind(api_obj, 'patch'), patch_m=bind(api_m, 'patch'), replace=bind(api_obj, 'replace'),
                delete=bind(api_obj, 'delete'), raw_read=raw_read)


def labels_patch(kind, extra):
    return {'metadata': {'labels': {'walk': kind.lower(), extra: 'yes'}}}


def add_label(key):
    def mutate(obj):
        obj.metadata.labels[key] = 'yes'
    return mutate


# Namespace (cluster-scoped): the walk's own namespace is created first and deleted last.
step('Namespace create', core.create_namespace_with_http_info, body=client.V1Namespace(metadata=meta(NS, {'walk': 'namespace'})))
step('Namespace read', core.read_namespace_with_http_info, NS)
report['typed']['Namespace listed'] = [n.metadata.name for n in step('Namespace list', core.list_namespace_with_http_info, label_selector='walk=namespace').items]
step('Namespace patch strategic', core.patch_namespace_with_http_info, NS, labels_patch('Namespace', 'strategic'))
step('Namespace patch merge', core_m.patch_namespace_with_http_info, NS, labels_patch('Namespace', 'merge'))
ns = core.read_namespace(NS)
ns.metadata.labels['replaced'] = 'yes'
report['typed']['Namespace'] = step('Namespace replace', core.replace_namespace_with_http_info, NS, ns).metadata.labels
raw('Namespace', core.read_namespace, NS)

# A watch on ConfigMaps of NS, running while the ConfigMap walk happens.
watched = threading.Event()
def watch_configmaps():
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, NS, timeout_seconds=10, _request_timeout=15):
        obj = event['object']
        report['watch'].append([event['type'], obj.metadata.name, obj.data])
        watched.set()
        if event['type'] == 'DELETED':
            w.stop()
watcher = threading.Thread(target=watch_configmaps)
watcher.start()
# The watch is open once its first event (the initial ADDED of a seed object) arrives.
core.create_namespaced_config_map(NS, client.V1ConfigMap(metadata=meta('seed'), data={'seed': 'yes'}))
watched.wait(10)

walk('ConfigMap', **namespaced(core, core_m, 'config_map'),
     body=client.V1ConfigMap(metadata=meta('settings', {'walk': 'configmap'}), data={'a': '1'}),
     sm_patch={'data': {'b': '2'}}, merge_patch={'data': {'a': None, 'c': '3'}},
     mutate=lambda o: o.data.__setitem__('d', '4'))
watcher.join(20)

walk('Secret', **namespaced(core, core_m, 'secret'),
     body=client.V1Secret(metadata=meta('creds', {'walk': 'secret'}), string_data={'user': 'admin'}, type='Opaque'),
     sm_patch={'data': {'pass': 'czNjcjN0'}}, merge_patch={'metadata': {'annotations': {'rotated': 'no'}}},
     mutate=add_label('replaced'))

walk('Service', **namespaced(core, core_m, 'service'),
     body=client.V1Service(metadata=meta('web', {'walk': 'service'}), spec=client.V1ServiceSpec(
         selector={'app': 'web'}, ports=[client.V1ServicePort(name='http', port=80, target_port=8080)])),
     sm_patch={'spec': {'ports': [{'name': 'metrics', 'port': 9090}]}},
     merge_patch={'spec': {'selector': {'app': 'web', 'tier': 'front'}}},
     mutate=add_label('replaced'))

container = client.V1Container(name='app', image='nginx:1.27')
walk('Pod', **namespaced(core, core_m, 'pod'),
     body=client.V1Pod(metadata=meta('solo', {'walk': 'pod'}), spec=client.V1PodSpec(containers=[container])),
     sm_patch={'spec': {'containers': [{'name': 'app', 'image': 'nginx:1.28'}]}},
     merge_patch={'metadata': {'annotations': {'note': 'merged'}}},
     mutate=add_label('replaced'))

template = client.V1PodTemplateSpec(metadata=meta(None, {'app': 'web'}), spec=client.V1PodSpec(containers=[container]))
walk('Deployment', **namespaced(apps, apps_m, 'deployment'),
     body=client.V1Deployment(metadata=meta('web', {'walk': 'deployment'}), spec=client.V1DeploymentSpec(
         replicas=2, selector=client.V1LabelSelector(match_labels={'app': 'web'}), template=template)),
     sm_patch={'spec': {'template': {'spec': {'containers': [{'name': 'app', 'image': 'nginx:1.28'}]}}}},
     merge_patch={'spec': {'replicas': 3}},
     mutate=lambda o: setattr(o.spec, 'replicas', 1))

job_template = client.V1PodTemplateSpec(spec=client.V1PodSpec(containers=[container], restart_policy='Never'))
walk('Job', **namespaced(batch, batch_m, 'job'),
     body=client.V1Job(metadata=meta('once', {'walk': 'job'}), spec=client.V1JobSpec(template=job_template, backoff_limit=1)),
     sm_patch={'spec': {'parallelism': 2}}, merge_patch={'spec': {'activeDeadlineSeconds': 600}},
     mutate=add_label('replaced'))

backend = client.V1IngressBackend(service=client.V1IngressServiceBackend(name='web', port=client.V1ServiceBackendPort(number=80)))
walk('Ingress', **namespaced(net, net_m, 'ingress'),
     body=client.V1Ingress(metadata=meta('front', {'walk': 'ingress'}), spec=client.V1IngressSpec(rules=[client.V1IngressRule(
         host='example.com', http=client.V1HTTPIngressRuleValue(paths=[client.V1HTTPIngressPath(path='/', path_type='Prefix', backend=backend)]))])),
     sm_patch={'spec': {'ingressClassName': 'nginx'}}, merge_patch={'metadata': {'annotations': {'note': 'merged'}}},
     mutate=add_label('replaced'))

walk('Role', **namespaced(rbac, rbac_m, 'role'),
     body=client.V1Role(metadata=meta('reader', {'walk': 'role'}), rules=[client.V1PolicyRule(api_groups=[''], resources=['pods'], verbs=['get'])]),
     sm_patch={'metadata': {'annotations': {'note': 'strategic'}}},
     merge_patch={'rules': [{'apiGroups': [''], 'resources': ['pods'], 'verbs': ['get', 'list']}]},
     mutate=add_label('replaced'))

# RbacV1Subject in 22.x; older releases call it V1Subject.
Subject = getattr(client, 'RbacV1Subject', None) or getattr(client, 'V1Subject')
walk('RoleBinding', **namespaced(rbac, rbac_m, 'role_binding'),
     body=client.V1RoleBinding(metadata=meta('readers', {'walk': 'rolebinding'}),
                               role_ref=client.V1RoleRef(api_group='rbac.authorization.k8s.io', kind='Role', name='reader'),
                               subjects=[Subject(kind='ServiceAccount', name='default', namespace=NS)]),
     sm_patch={'metadata': {'annotations': {'note': 'strategic'}}},
     merge_patch={'subjects': [{'kind': 'User', 'name': 'ada', 'apiGroup': 'rbac.authorization.k8s.io'}]},
     mutate=add_label('replaced'))


def error(label, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
        report['errors'][label] = None
    except ApiException as e:
        report['errors'][label] = {'status': e.status, 'reason': e.reason, 'body': json.loads(e.body)}


error('read missing', core.read_namespaced_config_map, 'missing', NS)
error('create invalid', core.create_namespaced_config_map, NS, client.V1ConfigMap(metadata=meta('Not_Valid')))
error('create twice', core.create_namespaced_config_map, NS, client.V1ConfigMap(metadata=meta('seed')))

# A list across namespaces with a field selector, and a DELETE carrying DeleteOptions in its body.
report['typed']['ConfigMaps by field'] = [
    [c.metadata.namespace, c.metadata.name]
    for c in step('ConfigMap list all namespaces', core.list_config_map_for_all_namespaces_with_http_info, field_selector='metadata.name=seed').items]
step('ConfigMap delete with options', core.delete_namespaced_config_map_with_http_info, 'seed', NS,
     body=client.V1DeleteOptions(propagation_policy='Background', grace_period_seconds=0))

step('Namespace delete', core.delete_namespace_with_http_info, NS)
print(json.dumps(report, sort_keys=True))
