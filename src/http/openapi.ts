import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PROJECT_ROOT } from '../config/config.js';
import { ErrorBody } from './schemas.js';

/** The API's version is the package's, read once when the service starts. */
const SERVICE_VERSION = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** OpenAPI built from the route schemas, served at /docs (UI) and /docs/json; assets are local, no CDN. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'UPlanet station service',
        description: 'NOSTR identities, IPFS drive, cookie intake and Ğ1/Ẑen economy read-outs.',
        version: SERVICE_VERSION,
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
