// The way to a real cluster: its kubeconfig loaded into client-node, and requests sent with the
// credentials, CA and dispatcher client-node itself would use (Watch does the same: config.js's
// applySecurityAuthentication sets headers and an undici Dispatcher on a RequestContext).
import { existsSync } from 'node:fs';
import { HttpMethod, KubeConfig, RequestContext } from '@kubernetes/client-node';
import { fetch, type Dispatcher } from 'undici';
import type { ResourceType } from '../../apis/resource-type.ts';

export interface RealConnection {
  /** The kubeconfig as loaded (its current context). */
  kubeConfig: KubeConfig;
  /** The server URL of the current context, without a trailing slash. */
  server: string;
  /** Sends one request to `path` (with query) on the server, authenticated as the kubeconfig says. */
  fetch(path: string, init?: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal }): Promise<Response>;
}

/** Loads a kubeconfig given as a file path or as YAML text. */
export function connect(kubeconfig: string): RealConnection {
  const kubeConfig = new KubeConfig();
  if (!kubeconfig.includes('\n') && existsSync(kubeconfig)) kubeConfig.loadFromFile(kubeconfig);
  else kubeConfig.loadFromString(kubeconfig);
  const server = kubeConfig.getCurrentCluster()?.server?.replace(/\/+$/, '');
  if (!server) throw new TypeError('kubefake: the kubeconfig for the real cluster has no current cluster with a server');
  return {
    kubeConfig,
    server,
    async fetch(path, init = {}) {
      const method = (init.method ?? 'GET').toUpperCase() as HttpMethod;
      const ctx = new RequestContext(server + path, method);
      await kubeConfig.applySecurityAuthentication(ctx);
      const dispatcher = ctx.getDispatcher() as Dispatcher | undefined;
      const response = await fetch(server + path, {
        method,
        headers: { ...ctx.getHeaders(), ...init.headers },
        body: init.body as string | undefined,
        signal: init.signal,
        ...(dispatcher ? { dispatcher } : {}),
      });
      return response as unknown as Response;
    },
  };
}

/** The REST path of a resource (`/apis/<group>/<version>[/namespaces/<ns>]/<plural>[/<name>]`). */
export function resourcePath(type: ResourceType, namespace: string | undefined, name?: string): string {
  const prefix = type.group ? `/apis/${type.group}/${type.version}` : `/api/${type.version}`;
  const ns = type.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${prefix}${ns}/${type.plural}${name ? `/${encodeURIComponent(name)}` : ''}`;
}
