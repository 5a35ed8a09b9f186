"""The pod part of the Python client's e2e suite (kubernetes/e2e_test/test_client.py, test_pod_apis),
against a kubefake workloads cluster: create a pod, wait for it to be Running, exec into it through
kubernetes.stream, read its log, delete it while following the log. Prints a JSON report for test/python-workloads.test.ts.
"""
import json
import sys
import time

from kubernetes import client, config
from kubernetes.stream import stream

config.load_kube_config(sys.argv[1])
api = client.CoreV1Api()
report = {}

pod = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "busybox-test"},
    "spec": {"containers": [{"image": "busybox", "name": "sleep", "args": ["/bin/sh", "-c", "while true;do date;sleep 5; done"]}]},
}
created = api.create_namespaced_pod(body=pod, namespace="default")
report["created"] = created.metadata.name

# test_client.py waits up to a minute for the phase to leave Pending.
deadline = time.time() + 60
while True:
    read = api.read_namespaced_pod(name="busybox-test", namespace="default")
    if read.status.phase != "Pending" or time.time() > deadline:
        break
    time.sleep(0.1)
report["phase"] = read.status.phase
report["ready"] = [c.ready for c in read.status.container_statuses]

resp = stream(api.connect_get_namespaced_pod_exec, "busybox-test", "default", command=["/bin/sh", "-c", "for i in $(seq 1 3); do date; done"], stderr=False, stdin=False, stdout=True, tty=False)
report["exec"] = resp

report["log"] = api.read_namespaced_pod_log(name="busybox-test", namespace="default")
# Beyond test_client.py: follow the log while the pod is deleted; the stream ends once it is gone.
followed = api.read_namespaced_pod_log(name="busybox-test", namespace="default", follow=True, _preload_content=False)
first = followed.readline().decode()
deleted = api.delete_namespaced_pod(name="busybox-test", body={}, namespace="default")
report["deleted"] = deleted.metadata.name
report["followed"] = first + followed.read().decode()
print(json.dumps(report))
