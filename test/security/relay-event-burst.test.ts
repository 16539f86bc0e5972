import type { NostrEvent } from 'nostr-tools';
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
  type LoginOutcome,
} from './relay-attack-station.js';

const STRANGERS = ['127.0.10.1', '127.0.10.2', '127.0.10.3', '127.0.10.4'];
const NOTES_PER_STRANGER = 300;
const SOCKETS_PER_STRANGER = 10;
const CONTENT = 128 * 1024;
/** How long logins go on being tried after the burst's last answer (issue 43 asks for 40 s). */
const AFTER_BURST_MS = 40_000;
const LOGIN_EVERY_MS = 2_000;
const { maxEventBytesPerMinute } = DEFAULT_RELAY_LIMITS;

interface Burst {
  address: string;
  messages: { id: string; text: string }[];
}

/** Each stranger's notes, signed with a throw-away key and serialised once (the relay counts these bytes). */
function prepareBursts(): Burst[] {
  return STRANGERS.map((address) => {
    const key = newKey();
    const messages = Array.from({ length: NOTES_PER_STRANGER }, (_, i) => {
      const event: NostrEvent = sign(key, { kind: 1, content: `${address} ${i} `.padEnd(CONTENT, 'b') });
      return { id: event.id, text: JSON.stringify(['EVENT', event]) };
    });
    return { address, messages };
  });
}

/**
 * Issue 43: strangers flooding the station's public relay with big notes must neither silence it (logins
 * are kind-22242 events on that same relay) nor starve it. Four strangers, four addresses, each 300 notes of
 * 128 KiB over 10 connections without waiting for answers, all at once.
 */
describe('a burst of big notes from four strangers', () => {
  let station: AttackedStation;
  let bursts: Burst[];
  beforeAll(async () => {
    const booting = startAttackedStation();
    // Signing (CPU of this process) overlaps the station's start (another process).
    bursts = prepareBursts();
    station = await booting;
  });
  afterAll(() => station?.stop());

  it('leaves logins and the station subscription working, and each stranger within its byte allowance', async () => {
    const user = await registerUser(station, 'burst@example.org');
    const storedBefore = (await station.health()).relay_store!.events;
    const sockets = (
      await Promise.all(
        bursts.map(({ address }) =>
          Promise.all(
            Array.from({ length: SOCKETS_PER_STRANGER }, () => Stranger.connect(station.relayUrl, address)),
          ),
        ),
      )
    ).flat();
    const health = probeHealth(station, 250);
    // A login every 2 s, each from an address of its own, whether the previous one is done or not.
    const logins: LoginOutcome[] = [];
    const loggingIn: Promise<void>[] = [];
    const login = () =>
      loggingIn.push(
        loginFrom(station, user, `127.0.20.${loggingIn.length + 1}`).then(
          (outcome) => void logins.push(outcome),
        ),
      );
    login();
    const loginTimer = setInterval(login, LOGIN_EVERY_MS);
    const stopLogins = async () => {
      clearInterval(loginTimer);
      await Promise.all(loggingIn);
    };

    try {
      const burstStart = Date.now();
      for (const [s, burst] of bursts.entries())
        burst.messages.forEach((message, i) =>
          sockets[s * SOCKETS_PER_STRANGER + (i % SOCKETS_PER_STRANGER)]!.sendRaw(message.text),
        );
      const answers = await Promise.all(
        bursts.map((burst, s) =>
          Promise.all(
            burst.messages.map((message, i) =>
              sockets[s * SOCKETS_PER_STRANGER + (i % SOCKETS_PER_STRANGER)]!.ok(message.id, 60_000),
            ),
          ),
        ),
      );
      const burstEnd = Date.now();
      await new Promise((resolve) => setTimeout(resolve, AFTER_BURST_MS));
      await stopLogins();
      const probes = await health.stop();

      // What each stranger got: accepted, or refused for its byte allowance, nothing else.
      const size = bursts[0]!.messages[0]!.text.length;
      const perWindow = Math.floor(maxEventBytesPerMinute / size);
      // The allowance is a fixed window per minute: a burst across a minute's end gets two.
      const windows = Math.floor(burstEnd / 60_000) - Math.floor(burstStart / 60_000) + 1;
      const outcomes = answers.map((list) => ({
        accepted: list.filter((answer) => answer[2] === true).length,
        rateLimited: list.filter((answer) => answer[2] === false && /^rate-limited: /.test(String(answer[3])))
          .length,
        other: list.filter((answer) => answer[2] !== true && !/^rate-limited: /.test(String(answer[3]))),
      }));
      const accepted = outcomes.reduce((sum, outcome) => sum + outcome.accepted, 0);
      const latencies = logins.filter((outcome) => outcome.ok).map((outcome) => outcome.ms);
      const publishing = logins.filter((outcome) => outcome.published).map((outcome) => outcome.publishMs);
      const duringBurst = logins.filter((outcome) => outcome.startedAt < burstEnd).length;
      console.info(
        `event burst: ${((burstEnd - burstStart) / 1000).toFixed(1)} s for ${STRANGERS.length} × ${NOTES_PER_STRANGER} notes of ${size} bytes; ` +
          `accepted per stranger ${outcomes.map((outcome) => outcome.accepted).join('/')} ` +
          `(allowance ${perWindow} a minute, ${windows} window(s)), rate-limited ${outcomes.map((outcome) => outcome.rateLimited).join('/')}; ` +
          `logins ${logins.filter((outcome) => outcome.ok).length}/${logins.length} (${duringBurst} begun during the burst), ` +
          `login time p50 ${percentile(latencies, 50)} ms, max ${Math.max(...latencies)} ms ` +
          `(relay's OK to the answer: p50 ${percentile(publishing, 50)} ms, max ${Math.max(...publishing)} ms; ` +
          `relay connection open: max ${Math.max(...logins.map((outcome) => outcome.connectMs))} ms); ` +
          `/health probes ${probes.length}, p50 ${percentile(
            probes.map((probe) => probe.ms),
            50,
          ).toFixed(0)} ms, ` +
          `p95 ${percentile(
            probes.map((probe) => probe.ms),
            95,
          ).toFixed(0)} ms; then ${AFTER_BURST_MS / 1000} s more of logins`,
      );

      for (const outcome of outcomes) {
        expect(outcome.other).toEqual([]);
        expect(outcome.accepted + outcome.rateLimited).toBe(NOTES_PER_STRANGER);
        expect(outcome.accepted).toBeGreaterThanOrEqual(perWindow);
        expect(outcome.accepted).toBeLessThanOrEqual(windows * perWindow);
      }
      // Accepted means stored.
      await waitFor(
        async () => (await station.health()).relay_store?.events === storedBefore + accepted,
      ).catch(() => undefined);
      expect((await station.health()).relay_store?.events).toBe(storedBefore + accepted);

      // Every login, during the burst and after it, got through: no AUTH_NOT_FOUND left standing.
      expect(duringBurst).toBeGreaterThanOrEqual(1);
      expect(logins.length).toBeGreaterThanOrEqual(10);
      expect(logins.filter((outcome) => !outcome.ok || !outcome.published)).toEqual([]);
      // /health answered every probe, always with the station's subscription live.
      expect(probes.length).toBeGreaterThanOrEqual(50);
      expect(probes.filter((probe) => probe.status !== 200 || !probe.live)).toEqual([]);
    } finally {
      await stopLogins();
      await health.stop();
      for (const socket of sockets) socket.close();
    }
  }, 180_000);
});
