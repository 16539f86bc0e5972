import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';

describe('station view routes in an app without streams', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('serve an empty view rather than failing', async () => {
    const stats = await app.app.inject({ method: 'GET', url: '/api/view/stats' });
    expect(stats.statusCode).toBe(200);
    expect(stats.json().sizes).toEqual({ profiles: 0, follows: 0, videos: 0, playlists: 0, geo: 0 });
    const profile = await app.app.inject({ method: 'GET', url: `/api/view/profile/${'a'.repeat(64)}` });
    expect(profile.statusCode).toBe(404);
    expect(profile.json()).toEqual({ code: 'PROFILE_NOT_FOUND', detail: expect.any(String) });
    const geo = await app.app.inject({ method: 'GET', url: '/api/geo/messages?lat=1&lon=2&limit=0' });
    expect(geo.statusCode).toBe(400);
  });

  it('are described in the OpenAPI document', async () => {
    const doc = (await app.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
      paths: Record<string, { get?: { tags?: string[]; summary?: string } }>;
    };
    for (const path of [
      '/api/view/profile/{pubkey}',
      '/api/view/follows/{pubkey}',
      '/api/view/videos/{pubkey}',
      '/api/view/playlists/{pubkey}',
      '/api/geo/messages',
      '/api/view/stats',
    ]) {
      expect(doc.paths[path]?.get).toMatchObject({ tags: ['view'], summary: expect.any(String) });
    }
  });
});
