import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { buildApp, type AppDeps } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { UserStore } from '../../src/identity/user-store.js';
import { createAuthServices } from '../../src/auth/services.js';
import { openDriveServices, type DriveServices } from '../../src/drive/services.js';
import type { ContentStore } from '../../src/drive/store/types.js';
import type { RelayLink } from '../../src/relay/link.js';
import { RelayClient } from '../../streams/relay-client.js';
import { tempDir } from './temp.js';
import { driveLinks } from '../../src/drive/links.js';

/** The port an app listens on (tests that call `listen` with port 0), or undefined before. */
function portOf(app: { server: { address(): unknown } } | undefined): number | undefined {
  const address = app?.server.address();
  return address && typeof address === 'object' ? (address as { port: number }).port : undefined;
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  config: Config;
  deps: AppDeps;
  root: string;
  close: () => Promise<void>;
}

/**
 * Builds the app on temp directories; `env` overrides configuration variables, `overrides` services,
 * `contentStore` the drive's content store (a Kubo double), `start` runs the drive's start-up work.
 */
export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    overrides?: Partial<AppDeps>;
    contentStore?: ContentStore;
    start?: boolean;
  } = {},
): Promise<TestApp> {
  const dir = await tempDir();
  const config = await loadConfig({
    HOME: dir.path,
    DATA_ROOT: join(dir.path, 'game'),
    TMP_DIR: join(dir.path, 'tmp'),
    // The event-loop guard answers 503 when this process lags; test files run two at a time, and a neighbour's
    // CPU must not turn a test's answers into OVERLOADED (test/http/overload.test.ts turns guards on).
    OVERLOAD_MAX_EVENT_LOOP_DELAY: '0',
    ...options.env,
  });
  await mkdir(config.tmpDir, { recursive: true });
  const logger = options.overrides?.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const users = await UserStore.open(config.dataRoot, { uplanetName: config.uplanetName, logger });
  const clock = options.clock ?? { now: () => Date.now() };
  // Without a relay given, a client that is never started: relay-observed auth finds nothing.
  const relay: RelayLink =
    options.overrides?.relay ?? new RelayClient({ url: 'ws://127.0.0.1:9', filters: () => [] });
  const ownAuth = options.overrides?.auth ? null : await createAuthServices({ config, clock, logger });
  const auth = options.overrides?.auth ?? ownAuth!;
  // Links name the port the app listens on, once it does (as station.ts does).
  const ownDrive = options.overrides?.drive
    ? null
    : await openDriveServices(config, {
        users,
        clock,
        logger,
        store: options.contentStore,
        links: () => driveLinks(config, portOf(app)),
      });
  const drive: DriveServices = options.overrides?.drive ?? ownDrive!;
  const deps: AppDeps = { config, clock, logger, users, auth, relay, drive, ...options.overrides };
  const app = await buildApp(deps);
  await app.ready();
  if (options.start) drive.start(() => users.list());
  return {
    app,
    config,
    deps,
    root: dir.path,
    close: async () => {
      await app.close();
      await ownDrive?.close();
      await ownAuth?.close();
      users.close();
      await dir.cleanup();
    },
  };
}
