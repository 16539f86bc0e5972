import cluster from 'node:cluster';

/**
 * Whether this process is a worker of a PM2 cluster other than its first instance (`NODE_APP_INSTANCE`, which
 * PM2 numbers from 0 and keeps across restarts). Under node's cluster module a worker listening on a port
 * another worker already listens on shares that socket instead of failing with EADDRINUSE: were each
 * worker to start the embedded relay, clients would be dealt to relays that never hear each other's live
 * events. Only the first instance runs it; the others use it as any relay at RELAY_URL.
 */
export function isLaterClusterInstance(
  env: NodeJS.ProcessEnv = process.env,
  isWorker: boolean = cluster.isWorker,
): boolean {
  const instance = env.NODE_APP_INSTANCE;
  return isWorker && instance !== undefined && instance !== '' && instance !== '0';
}
