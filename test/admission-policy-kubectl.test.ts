// A ValidatingAdmissionPolicy as kubectl users meet it: a Deny binding refuses the write with the
// policy's message, a Warn binding lets it through with the warning kubectl prints.
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

const manifests = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-debug
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["configmaps"]
  validations:
  - expression: "!('debug' in object.data)"
    messageExpression: "'configmap ' + object.metadata.name + ' must not set debug'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-debug-deny
spec:
  policyName: no-debug
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        kubernetes.io/metadata.name: default
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-debug-warn
spec:
  policyName: no-debug
  validationActions: [Warn]
  matchResources:
    namespaceSelector:
      matchLabels:
        kubernetes.io/metadata.name: kube-public
`;

describe.skipIf(!kubectlAvailable)('ValidatingAdmissionPolicy with kubectl', { shuffle: false }, () => {
  const k = useKubectlCluster();

  it('applies the policy and its bindings', async () => {
    const r = await k.kubectl(['apply', '-f', '-'], manifests);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'validatingadmissionpolicy.admissionregistration.k8s.io/no-debug created',
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/no-debug-deny created',
      'validatingadmissionpolicybinding.admissionregistration.k8s.io/no-debug-warn created',
    ]);
  });

  it('lists policies and bindings with the server’s columns', async () => {
    const r = await k.kubectl(['get', 'validatingadmissionpolicies,validatingadmissionpolicybindings']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));
    expect(rows.map((cells) => cells.slice(0, -1))).toEqual([
      ['NAME', 'VALIDATIONS', 'PARAMKIND'],
      ['validatingadmissionpolicy.admissionregistration.k8s.io/no-debug', '1', '<unset>'],
      [],
      ['NAME', 'POLICYNAME', 'PARAMREF'],
      ['validatingadmissionpolicybinding.admissionregistration.k8s.io/no-debug-deny', 'no-debug', '<unset>'],
      ['validatingadmissionpolicybinding.admissionregistration.k8s.io/no-debug-warn', 'no-debug', '<unset>'],
    ]);
  });

  it('a Deny binding refuses the create with the policy’s message', async () => {
    const r = await k.kubectl(['create', 'configmap', 'app', '--from-literal=debug=true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: failed to create configmap: configmaps "app" is forbidden: ValidatingAdmissionPolicy 'no-debug' with binding 'no-debug-deny' denied request: configmap app must not set debug\n`,
    );
    expect((await k.kubectl(['create', 'configmap', 'app', '--from-literal=mode=fast'])).code).toBe(0);
  });

  it('a Warn binding admits the create and kubectl prints the warning', async () => {
    const r = await k.kubectl(['create', 'configmap', 'app', '-n', 'kube-public', '--from-literal=debug=true']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('configmap/app created\n');
    expect(r.stderr).toBe(`Warning: Validation failed for ValidatingAdmissionPolicy 'no-debug' with binding 'no-debug-warn': configmap app must not set debug\n`);
  });

  it('a Warn binding’s warning is printed with the refusal of a Deny binding', async () => {
    const warnInDefault = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-debug-warn-default
spec:
  policyName: no-debug
  validationActions: [Warn]
  matchResources:
    namespaceSelector:
      matchLabels:
        kubernetes.io/metadata.name: default
`;
    expect((await k.kubectl(['apply', '-f', '-'], warnInDefault)).code).toBe(0);
    const r = await k.kubectl(['create', 'configmap', 'other', '--from-literal=debug=true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Warning: Validation failed for ValidatingAdmissionPolicy 'no-debug' with binding 'no-debug-warn-default': configmap other must not set debug\n` +
        `error: failed to create configmap: configmaps "other" is forbidden: ValidatingAdmissionPolicy 'no-debug' with binding 'no-debug-deny' denied request: configmap other must not set debug\n`,
    );
  });
});
