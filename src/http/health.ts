import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { localTimestamp } from '../clock.js';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  relay: Type.String(),
  content_store: Type.String(),
  users: Type.Integer(),
  timestamp: Type.String(),
});

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/health',
    { schema: { summary: 'Liveness and dependency status', tags: ['station'], response: { 200: Health } } },
    async () => {
      const store = await app.contentStore.health();
      return {
        status: app.relay.connected && store.ok ? ('ok' as const) : ('degraded' as const),
        relay: app.relay.connected ? 'connected' : 'disconnected',
        content_store: store.ok ? store.detail : 'unavailable',
        users: app.users.size,
        timestamp: localTimestamp(app.clock.now()),
      };
    },
  );
}
