// Client configuration pointing at a cluster: a client-node KubeConfig for in-process use and
// kubeconfig YAML for kubectl and other tools.
import { KubeConfig } from '@kubernetes/client-node';
import { dump } from 'js-yaml';

const NAME = 'kubefake';

export function makeKubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: NAME, server, skipTLSVerify: server.startsWith('http:') }],
    users: [{ name: NAME, token: 'kubefake' }],
    contexts: [{ name: NAME, cluster: NAME, user: NAME, namespace: 'default' }],
    currentContext: NAME,
  });
  return kc;
}

/**
 * kubeconfig YAML that kubectl uses as is (plain http, so kubectl sends no credentials);
 * insecure-skip-tls-verify lets client-node accept the http:// server too.
 */
export function kubeConfigYaml(server: string): string {
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: NAME, cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: NAME, user: { token: 'kubefake' } }],
    contexts: [{ name: NAME, context: { cluster: NAME, user: NAME, namespace: 'default' } }],
    'current-context': NAME,
    preferences: {},
  });
}
