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

/** How a client reaches a TLS listener: the CA that signed its certificate and the bearer token it requires. */
export interface ListenerCredentials {
  caCert: string;
  token: string;
}

/**
 * kubeconfig YAML that kubectl uses as is. Plain http: insecure-skip-tls-verify lets client-node
 * accept the http:// server (kubectl sends no credentials over http). TLS: the listener's CA as
 * certificate-authority-data and its bearer token.
 */
export function kubeConfigYaml(server: string, credentials?: ListenerCredentials): string {
  const cluster = credentials ? { server, 'certificate-authority-data': Buffer.from(credentials.caCert).toString('base64') } : { server, 'insecure-skip-tls-verify': true };
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: NAME, cluster }],
    users: [{ name: NAME, user: { token: credentials?.token ?? 'kubefake' } }],
    contexts: [{ name: NAME, context: { cluster: NAME, user: NAME, namespace: 'default' } }],
    'current-context': NAME,
    preferences: {},
  });
}
