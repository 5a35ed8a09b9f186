// Child process of test/lazy-msw.test.ts: in a fresh process, a cluster on the default transport
// (the in-process dispatcher) loads no msw; the first client that connects to a cluster host (the
// case named by argv[2]) switches the interception on before its connection is made and is
// answered. Prints one JSON line.
import { registerHooks } from 'node:module';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import tls from 'node:tls';

const msw = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    if (result.url.includes('/node_modules/msw/') || result.url.includes('/@mswjs/interceptors/')) msw.add(result.url);
    return result;
  },
});

const k8s = await import('@kubernetes/client-node');
const { createFakeCluster } = await import('../../src/index.ts');

/** GET through node:https (its global agent). */
function httpsGet(url: string, options: https.RequestOptions = {}): Promise<[number | undefined, string]> {
  return new Promise((resolve, reject) => {
    https
      .get(url, options, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve([res.statusCode, (JSON.parse(text) as { metadata: { name: string } }).metadata.name]));
      })
      .on('error', reject);
  });
}

/** GET over a bare tls.connect socket (no agent, no undici): what reaches only net.Socket's connect. */
function rawTlsGet(host: string, path: string): Promise<[number, string]> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port: 443, servername: host });
    let text = '';
    socket.setEncoding('utf8').on('error', reject).on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(text)?.[1]);
      if (end < 0 || Buffer.byteLength(text.slice(end + 4)) < length) return;
      socket.destroy();
      resolve([Number(text.split(' ')[1]), (JSON.parse(text.slice(end + 4)) as { metadata: { name: string } }).metadata.name]);
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}

const connectBefore = net.Socket.prototype.connect;
const which = process.argv[2];
const cluster = await createFakeCluster();
const out: Record<string, unknown> = { afterCluster: msw.size > 0 };
// cluster.kubeConfig needs no interception.
await cluster.kubeConfig.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
out.afterKubeConfig = msw.size > 0;
const path = `${cluster.url}/api/v1/namespaces/default`;
if (which === 'fetch') {
  const r = await fetch(path);
  out.answer = [r.status, ((await r.json()) as { metadata: { name: string } }).metadata.name];
} else if (which === 'https') {
  out.answer = await httpsGet(path);
} else if (which === 'tls') {
  out.answer = await rawTlsGet(new URL(cluster.url).host, '/api/v1/namespaces/default');
} else if (which === 'kubeconfig-from-url') {
  const kc = new k8s.KubeConfig();
  kc.loadFromClusterAndUser({ name: 'c', server: cluster.url, skipTLSVerify: true }, { name: 'u' });
  const ns = await kc.makeApiClient(k8s.CoreV1Api).readNamespace({ name: 'default' });
  out.answer = [200, ns.metadata?.name];
} else if (which === 'user-msw-after-cluster') {
  // A user's own msw server started after the cluster, with no handler for the cluster host.
  const { setupServer } = await import('msw/node');
  const server = setupServer();
  server.listen({ onUnhandledFrame: 'bypass' });
  out.answer = await httpsGet(path);
  server.close();
} else if (which === 'other-tls-server') {
  // The first connection goes to another HTTPS server (a webhook's, trusted through its CA): it
  // switches the interception on mid-connect and passes through to that server untouched.
  const pem = (file: string) => readFileSync(new URL(`./webhook-tls/${file}`, import.meta.url));
  const server = https.createServer({ key: pem('key.pem'), cert: pem('cert.pem') }, (req, res) => req.resume().on('end', () => res.end('from the other server')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  out.other = await new Promise<string>((resolve, reject) => {
    https
      .get(`https://127.0.0.1:${port}/`, { ca: pem('cert.pem') }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve(text));
      })
      .on('error', reject);
  });
  server.close();
  out.answer = await httpsGet(path);
} else if (which === 'again') {
  // Interception goes off with the last cluster and on again for the next cluster's first client.
  await fetch(path).then((r) => r.arrayBuffer());
  await cluster.close();
  const next = await createFakeCluster();
  out.answer = await httpsGet(`${next.url}/api/v1/namespaces/default`);
  await next.close();
} else if (which !== 'none') throw new Error(`unknown case ${which}`);
out.afterClient = msw.size > 0;
await cluster.close();
// With no cluster open, Node's own socket method is back.
out.restored = net.Socket.prototype.connect === connectBefore;
console.log(JSON.stringify(out));
process.exit(0);
