import type { StationApp } from '../../http/station-app.js';
import type { MetadataPublisher } from '../blobs/metadata-publisher.js';
import type { BlobService } from '../blobs/service.js';
import type { BlossomGate } from './auth.js';
import { blossomMirrorRoutes } from './mirror-routes.js';
import { blossomReadRoutes } from './read-routes.js';
import { blossomUploadRoutes } from './upload-routes.js';
import { nip96Routes } from '../nip96/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    blobs: BlobService;
    blossomGate: BlossomGate;
    /** NIP-94 announcements of new uploads (PUBLISH_FILE_METADATA). */
    fileMetadata: MetadataPublisher;
  }
  interface FastifyContextConfig {
    /** The route reads its body as a raw stream: no NIP-98 body digest is taken for it. */
    rawBody?: boolean;
  }
}

/**
 * The NOSTR-native drive (docs/api.md, "NOSTR clients and the drive"): Blossom on the API's root and NIP-96,
 * on the drive and its index; the services are buildApp's decorators (`blobs`, `blossomGate`, `fileMetadata`).
 */
export async function registerBlossom(app: StationApp): Promise<void> {
  await app.register(blossomReadRoutes);
  await app.register(blossomUploadRoutes);
  await app.register(blossomMirrorRoutes);
  await app.register(nip96Routes);
}
