import { describe, expect, it } from 'vitest';
import { goDuration, WebhookDispatcher } from './webhook-dispatcher.ts';
import { WebhookTransportError } from './types.ts';

describe('goDuration', () => {
  it('prints as time.Duration.String() does', () => {
    expect([goDuration(30_000), goDuration(500), goDuration(1_500), goDuration(90_000), goDuration(0)]).toEqual(['30s', '500ms', '1.5s', '1m30s', '0s']);
  });
});

describe('WebhookDispatcher', () => {
  it('matches a service reference with the default port and path', async () => {
    const d = new WebhookDispatcher();
    d.serve({ namespace: 'ns', name: 'svc' }, (body) => ({ echo: body }));
    const reply = await d.post({ service: { namespace: 'ns', name: 'svc', port: 443 } }, { a: 1 });
    expect(reply).toEqual({ status: 200, contentType: 'application/json', body: JSON.stringify({ echo: { a: 1 } }) });
  });

  it('matches a URL whatever the spelling of its default port', async () => {
    const d = new WebhookDispatcher();
    d.serve('https://hook.example:443/convert', () => ({}));
    await expect(d.post({ url: 'https://hook.example/convert' }, {})).resolves.toMatchObject({ status: 200 });
  });

  it('answers a handler returning nothing as an empty 200, and a throwing one as a 500 with its message', async () => {
    const d = new WebhookDispatcher();
    d.serve({ namespace: 'ns', name: 'empty' }, () => undefined);
    d.serve({ namespace: 'ns', name: 'throws' }, () => {
      throw new Error('boom');
    });
    await expect(d.post({ service: { namespace: 'ns', name: 'empty' } }, {})).resolves.toEqual({ status: 200, contentType: undefined, body: '' });
    await expect(d.post({ service: { namespace: 'ns', name: 'throws' } }, {})).resolves.toMatchObject({ status: 500, body: 'boom' });
  });

  it('fails an unserved service as the service resolver does', async () => {
    const d = new WebhookDispatcher({ findService: (_ns, name) => (name === 'exists' ? { spec: { clusterIP: '10.0.0.7' } } as never : undefined) });
    await expect(d.post({ service: { namespace: 'ns', name: 'gone', path: '/x' } }, {})).rejects.toThrow(new WebhookTransportError('Post "https://gone.ns.svc:443/x?timeout=30s": services "gone" not found'));
    await expect(d.post({ service: { namespace: 'ns', name: 'exists', port: 8443 } }, {})).rejects.toThrow('Post "https://exists.ns.svc:8443/?timeout=30s": dial tcp 10.0.0.7:8443: connect: connection refused');
  });

  it('refuses targets that are neither a URL nor a service reference', () => {
    const d = new WebhookDispatcher();
    expect(() => d.serve('not a url', () => ({}))).toThrow(TypeError);
    expect(() => d.serve({ name: 'x' } as never, () => ({}))).toThrow(TypeError);
  });

  it('unregisters only its own handler', async () => {
    const d = new WebhookDispatcher();
    const first = d.serve({ namespace: 'ns', name: 's' }, () => ({ n: 1 }));
    d.serve({ namespace: 'ns', name: 's' }, () => ({ n: 2 }));
    first();
    await expect(d.post({ service: { namespace: 'ns', name: 's' } }, {})).resolves.toMatchObject({ body: '{"n":2}' });
  });
});
