import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from './schemas.js';

/** OpenAPI built from the route schemas, served at /docs (UI) and /docs/json; assets are local, no CDN. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'UPlanet station service',
        description: 'NOSTR identities, IPFS drive, cookie intake and Ğ1/Ẑen economy read-outs.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          nostr: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              '`Nostr <base64 event>`: a NIP-98 kind 27235 event, or a kind 22242 event with an issued challenge',
          },
        },
      },
    },
  });
  // staticCSP: the UI page gets a policy of its own that allows exactly its scripts under helmet's defaults.
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: false }, staticCSP: true });
}
