import type { StationApp } from '../../http/station-app.js';
import { MetadataPublisher } from '../blobs/metadata-publisher.js';
import { BlobService } from '../blobs/service.js';
import type { BlobIndex } from '../blobs/blob-index.js';
import { reconcileBlobIndex } from '../blobs/index-sync.js';
import { driveLinks } from '../links.js';
import { BlossomGate } from './auth.js';
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
 * The NOSTR-native drive (README, "NOSTR clients and the drive"): Blossom on the API's root, on top of the
 * drive and the blob index the drive keeps up to date. Needs `registerDrive` first.
 */
export async function registerBlossom(
  app: StationApp,
  options: { index: BlobIndex; links: () => ReturnType<typeof driveLinks> },
): Promise<void> {
  const { index } = options;
  app.decorate('blobs', new BlobService({ drive: app.drive, index, links: options.links }));
  const publicHosts = app.config.auth.publicUrls.map((url) => new URL(url).hostname.toLowerCase());
  app.decorate(
    'blossomGate',
    new BlossomGate({ replay: app.auth.replay, publicHosts: () => publicHosts, clock: app.clock }),
  );
  app.decorate(
    'fileMetadata',
    new MetadataPublisher({
      relay: app.relay,
      dirFor: (email) => app.users.dirFor(email),
      clock: app.clock,
      logger: app.log as never,
      enabled: app.config.blossom.publishFileMetadata,
    }),
  );
  await app.register(blossomReadRoutes);
  await app.register(blossomUploadRoutes);
  await app.register(nip96Routes);

  // Drives changed while the index was not looking (a crash, an older version, shell tools) are caught up
  // with in the background: start-up does not wait for a walk over every drive.
  let stopped = false;
  app.addHook('onReady', async () => {
    const users = app.users.list().filter(() => !stopped);
    void reconcileBlobIndex(index, users, (user) => app.drive.list(user), app.log as never)
      .then(({ added, forgotten }) => {
        if (added + forgotten > 0)
          app.log.info({ added, forgotten }, 'blob index reconciled with the drives');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'blob index reconciliation failed'));
  });
  app.addHook('onClose', async () => {
    stopped = true;
  });
}
