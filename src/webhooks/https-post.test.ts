import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { httpsPost } from './https-post.ts';

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

// client-go's rest.Request reads a webhook's answer with io.ReadAll, with no size limit: what bounds
// an endless answer is the call's absolute timeout, which must also end a body still arriving.
it('ends an answer still arriving at the absolute timeout, with context deadline exceeded', async () => {
  server = http.createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const drip = setInterval(() => res.write('x'.repeat(1000)), 20);
    res.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/convert`;
  await expect(httpsPost(url, '{}', { headers: {}, timeoutMs: 300 })).rejects.toThrow(`Post "${url}": context deadline exceeded`);
});
