import Fastify from 'fastify';
import helmet from 'helmet';
import { afterEach, describe, expect, it } from 'vitest';
import { helmetHeaders, securityHeaders } from '../../src/http/security-headers.js';

/** What helmet's own middleware writes on a response, for comparison. */
function helmetOnARealResponse(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const written: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (written[name.toLowerCase()] = value),
    removeHeader: (name: string) => delete written[name.toLowerCase()],
  };
  helmet(options)({} as never, response as never, () => undefined);
  return written;
}

describe('security headers recorded once per variant', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => Promise.all(apps.splice(0).map((app) => app.close())));

  it('records exactly the headers helmet writes', () => {
    const options = {
      contentSecurityPolicy: { directives: { 'connect-src': ["'self'", 'wss://relay.example'] } },
      hsts: false,
    };
    const headers = helmetHeaders(options);
    expect(headers).toEqual(helmetOnARealResponse(options));
    expect(headers['content-security-policy']).toContain("connect-src 'self' wss://relay.example");
    expect(headers['strict-transport-security']).toBeUndefined();
  });

  it('asks for the options once per variant, and a route may still override a header', async () => {
    const asked: string[] = [];
    const app = Fastify();
    apps.push(app);
    securityHeaders(
      app,
      (variant) => {
        asked.push(variant);
        return { contentSecurityPolicy: { directives: { 'connect-src': ["'self'", variant] } } };
      },
      (request) => `ws://${request.hostname}`,
    );
    app.get('/', async () => ({ ok: true }));
    app.get('/sandboxed', async (_request, reply) =>
      reply.header('content-security-policy', 'sandbox').send('x'),
    );
    const policy = async (url: string, host: string) =>
      (await app.inject({ url, headers: { host } })).headers['content-security-policy'];

    expect(await policy('/', 'a.example')).toContain("connect-src 'self' ws://a.example");
    expect(await policy('/', 'a.example')).toContain("connect-src 'self' ws://a.example");
    expect(await policy('/', 'b.example')).toContain("connect-src 'self' ws://b.example");
    expect(await policy('/no-such-route', 'a.example')).toContain('ws://a.example');
    expect(await policy('/sandboxed', 'a.example')).toBe('sandbox');
    expect(asked).toEqual(['ws://a.example', 'ws://b.example']);
  });
});
