import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom, take, toArray } from 'rxjs';
import { generateSecretKey, getPublicKey } from 'nostr-tools';
import { verificationStats } from '../src/nostr/verify.js';
import { startEmbeddedRelay } from '../src/relay/embedded-relay.js';
import { RelayClient, signerFromSecretKey } from '../streams/relay-client.js';
import { benchEvents, fillStore } from './relay-events.js';

/**
 * Events per second the bot takes in from its relay, each verified (this process never saw them: they went
 * straight into the store), de-duplicated and emitted on `events$`.
 */
export async function benchIngest(count: number) {
  const home = await mkdtemp(join(tmpdir(), 'station-bench-ingest-'));
  const events = await benchEvents(count);
  const station = generateSecretKey();
  const relay = await startEmbeddedRelay({
    host: '127.0.0.1',
    port: 0,
    storePath: join(home, 'store'),
    maxEvents: count * 2,
    privilegedPubkeys: [getPublicKey(station)],
  });
  await fillStore(relay.store, events);
  const client = new RelayClient({
    urls: [relay.url],
    filters: () => [{ kinds: [1, 7], since: 0 }],
    signer: signerFromSecretKey(station),
  });
  const checksBefore = verificationStats.checks;
  const started = performance.now();
  const all = firstValueFrom(client.events$.pipe(filter(Boolean), take(count), toArray()));
  client.start();
  const received = await all;
  const seconds = (performance.now() - started) / 1000;
  await client.stop();
  await relay.close();
  await rm(home, { recursive: true, force: true });
  return {
    ingest_events: received.length,
    ingest_events_per_s: Math.round(received.length / seconds),
    signature_checks: verificationStats.checks - checksBefore,
  };
}
