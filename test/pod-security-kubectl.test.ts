// Pod Security admission as kubectl shows it: the warn level's Warning on stderr, the enforce
// level's refusal, and the warnings of `kubectl label` on a namespace whose pods violate the new
// level (texts from pod-security-admission v0.36.2).
import { describe, expect, it } from 'vitest';
import { kubectlAvailable, useKubectlCluster } from './support/kubectl.ts';

describe.skipIf(!kubectlAvailable)('Pod Security through kubectl', { shuffle: false }, () => {
  const ctx = useKubectlCluster();

  it('kubectl run in a namespace that warns: created, with the Warning on stderr', async () => {
    expect((await ctx.kubectl(['create', 'namespace', 'warned'])).code).toBe(0);
    expect((await ctx.kubectl(['label', 'namespace', 'warned', 'pod-security.kubernetes.io/warn=baseline'])).code).toBe(0);
    const run = await ctx.kubectl(['run', 'web', '-n', 'warned', '--image=nginx', '--port=80', '--overrides={"spec":{"hostNetwork":true}}']);
    expect(run).toEqual({
      code: 0,
      stdout: 'pod/web created\n',
      stderr: 'Warning: would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true), hostPort (container "web" uses hostPort 80)\n',
    });
  });

  it('kubectl label with a stricter enforce level lists the pods that violate it; a new pod is refused', async () => {
    const label = await ctx.kubectl(['label', 'namespace', 'warned', 'pod-security.kubernetes.io/enforce=baseline']);
    expect(label).toEqual({
      code: 0,
      stdout: 'namespace/warned labeled\n',
      stderr: 'Warning: existing pods in namespace "warned" violate the new PodSecurity enforce level "baseline:latest"\nWarning: web: host namespaces, hostPort\n',
    });
    const refused = await ctx.kubectl(['run', 'web2', '-n', 'warned', '--image=nginx', '--overrides={"spec":{"hostPID":true}}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('Error from server (Forbidden): pods "web2" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)\n');
  });
});
