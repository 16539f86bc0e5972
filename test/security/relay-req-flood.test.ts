import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RELAY_LIMITS } from '../../src/relay/limits.js';
import { newKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import {
  loginFrom,
  percentile,
  probeHealth,
  registerUser,
  sign,
  startAttackedStation,
  Stranger,
  type AttackedStation,
} from './relay-attack-station.js';

const STORED = 300;
const ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.0.30.${i + 1}`);
const { maxConnectionsPerAddress, reqsPerSecond, reqBurst } = DEFAULT_RELAY_LIMITS;
const REQ_EVERY_MS = 200;
const FLOOD_MS = 20_000;
const LIMIT = 10;

/** What one flooding socket sent and got back, per subscription id. */
interface Flooder {
  stranger: Stranger;
  address: string;
  sent: number;
  /** Subscriptions answered with EOSE, and how many events each had before it. */
  answered: Map<string, number>;
  closed: string[];
  events: Map<string, number>;
}

function flood(stranger: Stranger, address: string): Flooder {
  const flooder: Flooder = { stranger, address, sent: 0, answered: new Map(), closed: [], events: new Map() };
  stranger.onFrame((frame) => {
    const [type, id] = frame as [string, string];
    if (type === 'EVENT') flooder.events.set(id, (flooder.events.get(id) ?? 0) + 1);
    if (type === 'EOSE') {
      flooder.answered.set(id, flooder.events.get(id) ?? 0);
      // Closed at once, as a polling client would: open subscriptions are capped per connection.
      stranger.send('CLOSE', id);
    }
    if (type === 'CLOSED') flooder.closed.push(String(frame[2]));
  });
  return flooder;
}

/**
 * Issue 43: 200 sockets from ten strangers asking again and again for recent notes must not slow the
 * station's HTTP API down to a stop nor keep logins out; REQs past an address's allowance are refused.
 */
describe('a flood of REQs', () => {
  let station: AttackedStation;
  const sockets: Stranger[] = [];
  beforeAll(async () => {
    station = await startAttackedStation();
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await station?.stop();
  });

  it(`refuses a ${maxConnectionsPerAddress + 1}st connection from one address with 1008`, async () => {
    const held = await Promise.all(
      Array.from({ length: maxConnectionsPerAddress }, () =>
        Stranger.connect(station.relayUrl, '127.0.29.1'),
      ),
    );
    sockets.push(...held);
    const extra = await Stranger.connect(station.relayUrl, '127.0.29.1');
    sockets.push(extra);
    await waitFor(() => extra.closeCode !== null);
    expect(extra.closeCode).toBe(1008);
    expect(extra.closeReason).toMatch(/^rate-limited: /);
    // The others are still open, and so is a connection from another address.
    expect(held.filter((socket) => socket.closeCode !== null)).toEqual([]);
    const other = await Stranger.connect(station.relayUrl, '127.0.29.2');
    sockets.push(other);
    other.send('REQ', 'one', { kinds: [1], limit: 1 });
    await waitFor(() => other.frames.some((frame) => frame[0] === 'EOSE'));
    expect(other.closeCode).toBeNull();
    for (const socket of sockets.splice(0)) socket.close();
  });

  it('keeps /health answering and logins working, and refuses REQs past the allowance', async () => {
    const user = await registerUser(station, 'req-flood@example.org');
    const writer = await Stranger.connect(station.relayUrl, '127.0.0.1');
    sockets.push(writer);
    const author = newKey();
    const at = Math.floor(Date.now() / 1000) - STORED;
    const notes = Array.from({ length: STORED }, (_, i) =>
      sign(author, { kind: 1, created_at: at + i, content: `note ${i}` }),
    );
    for (const note of notes) writer.send('EVENT', note);
    const stored = await Promise.all(notes.map((note) => writer.ok(note.id, 30_000)));
    expect(stored.filter((answer) => answer[2] === true)).toHaveLength(STORED);

    const flooders = (
      await Promise.all(
        ADDRESSES.map((address) =>
          Promise.all(
            Array.from({ length: maxConnectionsPerAddress }, () =>
              Stranger.connect(station.relayUrl, address),
            ),
          ),
        ),
      )
    ).flatMap((group, a) => group.map((stranger) => flood(stranger, ADDRESSES[a]!)));
    sockets.push(...flooders.map((flooder) => flooder.stranger));
    expect(flooders).toHaveLength(200);

    const health = probeHealth(station, 100);
    const floodStart = Date.now();
    const timers = flooders.map((flooder, s) =>
      setInterval(() => {
        flooder.stranger.send('REQ', `f${s}-${flooder.sent++}`, { kinds: [1], limit: LIMIT });
      }, REQ_EVERY_MS),
    );
    let loggingIn: ReturnType<typeof loginFrom> | null = null;
    const loginTimer = setTimeout(() => (loggingIn = loginFrom(station, user, '127.0.31.1')), FLOOD_MS / 4);
    try {
      await new Promise((resolve) => setTimeout(resolve, FLOOD_MS));
    } finally {
      for (const timer of timers) clearInterval(timer);
      clearTimeout(loginTimer);
    }
    const probes = await health.stop();
    const login = await loggingIn!;
    // Every REQ sent is answered, EOSE or CLOSED.
    await waitFor(() =>
      flooders.every((flooder) => flooder.answered.size + flooder.closed.length >= flooder.sent),
    ).catch(() => undefined);
    const seconds = (Date.now() - floodStart) / 1000;

    const sent = flooders.reduce((sum, flooder) => sum + flooder.sent, 0);
    const closed = flooders.flatMap((flooder) => flooder.closed);
    const rateLimited = closed.filter((message) => message.startsWith('rate-limited:'));
    const acceptedPerAddress = ADDRESSES.map((address) =>
      flooders
        .filter((flooder) => flooder.address === address)
        .reduce((sum, flooder) => sum + flooder.answered.size, 0),
    );
    const times = probes.map((probe) => probe.ms);
    console.info(
      `REQ flood: ${sent} REQs from 200 sockets in ${(FLOOD_MS / 1000).toFixed(0)} s; answered with EOSE ${acceptedPerAddress.reduce((a, b) => a + b, 0)} ` +
        `(per address ${acceptedPerAddress.join('/')}), CLOSED rate-limited ${rateLimited.length}, other CLOSED ${closed.length - rateLimited.length}; ` +
        `/health probes ${probes.length}: p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, ` +
        `max ${Math.max(...times).toFixed(0)} ms; login ${login.ok ? 'ok' : 'FAILED'} in ${login.ms} ms (relay OK after ${login.publishMs} ms)`,
    );

    // /health answered every probe (a probe has 5 s), with the station's subscription live.
    expect(probes.length).toBeGreaterThanOrEqual(100);
    expect(probes.filter((probe) => probe.status !== 200)).toEqual([]);
    expect(probes.filter((probe) => !probe.live)).toEqual([]);
    expect(login, JSON.stringify(login)).toMatchObject({ published: true, ok: true });

    // Every REQ was answered; refusals are the rate limit's, and each address got its burst, and no more
    // than its burst plus its rate over the time the flood took.
    expect(
      flooders.filter((flooder) => flooder.answered.size + flooder.closed.length !== flooder.sent),
    ).toEqual([]);
    expect(closed.filter((message) => !message.startsWith('rate-limited:'))).toEqual([]);
    expect(rateLimited.length).toBeGreaterThan(sent / 2);
    for (const accepted of acceptedPerAddress) {
      expect(accepted).toBeGreaterThanOrEqual(reqBurst);
      expect(accepted).toBeLessThanOrEqual(reqBurst + reqsPerSecond * (seconds + 1));
    }
    // An answered REQ carried its `limit` of the stored notes.
    const sizes = new Set(flooders.flatMap((flooder) => [...flooder.answered.values()]));
    expect([...sizes]).toEqual([LIMIT]);
  }, 150_000);
});
