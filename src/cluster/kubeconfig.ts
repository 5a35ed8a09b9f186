// Client configuration pointing at a cluster: a client-node KubeConfig for in-process use and
// kubeconfig YAML for kubectl and other tools.
import { KubeConfig, type RequestContext } from '@kubernetes/client-node';
import type { Duplex } from 'node:stream';
import type { Dispatcher } from 'undici';
import { dump } from 'js-yaml';

const NAME = 'kubefake';

/** Opens an in-memory connection to the cluster (transport/in-process-upgrades.ts), once its server is loaded. */
export type SocketConnector = () => Promise<() => Duplex>;

/**
 * A KubeConfig whose fetch-based requests (generated APIs, KubernetesObjectApi, Watch, Log,
 * informers) go to `dispatcher` while its current cluster is still `server`: client-node sets the
 * per-request dispatcher in applySecurityAuthentication (config.js), after the auth headers.
 * WebSocket paths (Exec, Attach, PortForward) open a `ws` socket with the options
 * applyToHTTPSOptions fills in: with `connect`, those get an in-memory connection to the cluster
 * (`createConnection`, in place of the agent) on either transport. A copy made from
 * exportConfig() is an ordinary KubeConfig.
 */
class InProcessKubeConfig extends KubeConfig {
  readonly #server: string;
  readonly #dispatcher: Dispatcher | undefined;
  readonly #connect: SocketConnector | undefined;

  constructor(server: string, dispatcher: Dispatcher | undefined, connect?: SocketConnector) {
    super();
    this.#server = server;
    this.#dispatcher = dispatcher;
    this.#connect = connect;
  }

  /** Whether the current context still points at the cluster, directly. */
  #targetsServer(): boolean {
    const cluster = this.getCurrentCluster();
    return !!cluster && !cluster.proxyUrl && cluster.server?.replace(/\/+$/, '') === this.#server;
  }

  override async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await super.applySecurityAuthentication(context);
    if (this.#dispatcher && this.#targetsServer()) context.setDispatcher(this.#dispatcher);
  }

  override async applyToHTTPSOptions(opts: Parameters<KubeConfig['applyToHTTPSOptions']>[0]): Promise<void> {
    await super.applyToHTTPSOptions(opts);
    if (!this.#connect || !this.#targetsServer()) return;
    const connect = await this.#connect();
    // node:http uses createConnection only when no agent is given.
    const options = opts as { agent?: unknown; createConnection?: () => Duplex };
    delete options.agent;
    options.createConnection = () => connect();
  }
}

/**
 * A KubeConfig, loaded by `load`, whose fetch requests to `server` go to `dispatcher` (an
 * in-process cluster, or real-cluster mode's recording forwarder).
 */
export function routedKubeConfig(server: string, dispatcher: Dispatcher, load: (kc: KubeConfig) => void): KubeConfig {
  const kc = new InProcessKubeConfig(server.replace(/\/+$/, ''), dispatcher);
  load(kc);
  return kc;
}

/**
 * A KubeConfig for `server`; with `dispatcher`, its fetch requests are answered by it instead of
 * the network, and with `connect` its WebSocket connections are in-memory ones.
 */
export function makeKubeConfig(server: string, dispatcher?: Dispatcher, token = 'kubefake', connect?: SocketConnector): KubeConfig {
  const kc = dispatcher || connect ? new InProcessKubeConfig(server, dispatcher, connect) : new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: NAME, server, skipTLSVerify: server.startsWith('http:') }],
    users: [{ name: NAME, token }],
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
export function kubeConfigYaml(server: string, credentials?: ListenerCredentials, userToken?: string, clientCertificate?: { cert: string; key: string }): string {
  const b64 = (pemText: string) => Buffer.from(pemText).toString('base64');
  const user = clientCertificate ? { 'client-certificate-data': b64(clientCertificate.cert), 'client-key-data': b64(clientCertificate.key) } : { token: userToken ?? credentials?.token ?? 'kubefake' };
  const cluster = credentials ? { server, 'certificate-authority-data': Buffer.from(credentials.caCert).toString('base64') } : { server, 'insecure-skip-tls-verify': true };
  return dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: NAME, cluster }],
    users: [{ name: NAME, user }],
    contexts: [{ name: NAME, context: { cluster: NAME, user: NAME, namespace: 'default' } }],
    'current-context': NAME,
    preferences: {},
  });
}
