import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { nip19, type NostrEvent } from 'nostr-tools';
import { finalizeEvent } from 'nostr-tools/wasm';
import WebSocket from 'ws';
// Sets nostr-tools' wasm backend: signing 128 KiB notes is several times faster than in pure JS.
import '../../src/nostr/verify.js';
import { loopbackEnv, startService, type ServiceProcess } from '../e2e/service-process.js';
import { keyFromSecret, type TestKey } from '../helpers/nostr.js';
import { waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';

/**
 * The real service on loopback, attacked by clients on other loopback addresses (127.0.x.y): 127.0.0.1 and
 * ::1 are TRUSTED_IPS, exempt from the relay's allowances, so every stranger here binds its sockets to an
 * address of its own (Linux routes all of 127.0.0.0/8 to the loopback interface).
 */

export interface Health {
  status: string;
  relays: { url: string; role: string; status: string; subscription: string }[];
  relay_store: { ok: boolean; events: number; error: string | null; answer_events_read?: number } | null;
  memory: { rss_mb: number; anonymous_mb: number | null; heap_used_mb: number } | null;
}

export interface AttackedStation {
  service: ServiceProcess;
  url: string;
  relayUrl: string;
  health(): Promise<Health>;
  /** The child's VmRSS and RssAnon, in MiB, from /proc/<pid>/status (the relay thread included). */
  memory(): Promise<{ rssMb: number; anonymousMb: number }>;
  /** The child's JSON log lines whose `msg` is `message` (the relay thread's lines included). */
  logged(message: string): Record<string, unknown>[];
  stop(): Promise<void>;
}

export const now = () => Math.floor(Date.now() / 1000);

/** The station's relay link as /health shows it: open, and its subscription answered (a login gets through). */
export const stationLinkLive = (health: Health) =>
  health.relays.some(
    (relay) => relay.role === 'station' && relay.status === 'open' && relay.subscription === 'live',
  );

export async function startAttackedStation(env: Record<string, string> = {}): Promise<AttackedStation> {
  const dir = await tempDir('station-attack-');
  const service = startService({ ...loopbackEnv(dir.path), ...env });
  const stop = async () => {
    if (service.child.exitCode === null && service.child.signalCode === null) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await dir.cleanup();
  };
  try {
    const url = await service.listening;
    const health = async () => (await (await fetch(`${url}/health`)).json()) as Health;
    await waitFor(async () => (await health()).status === 'ok', 60_000);
    const relayUrl = (await health()).relays.find((relay) => relay.role === 'station')!.url;
    const pid = service.child.pid!;
    const memory = async () => {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const field = (name: string) =>
        Number(new RegExp(`^${name}:\\s*(\\d+) kB$`, 'm').exec(status)![1]) / 1024;
      return { rssMb: field('VmRSS'), anonymousMb: field('RssAnon') };
    };
    const logged = (message: string) =>
      service.lines.flatMap((line) => {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          return entry.msg === message ? [entry] : [];
        } catch {
          return [];
        }
      });
    return { service, url, relayUrl, health, memory, logged, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** An HTTP answer to a request sent from `localAddress`; `null` status when it did not come in `timeoutMs`. */
export function httpFrom(
  url: string,
  options: { localAddress: string; method?: string; body?: unknown; timeoutMs?: number },
): Promise<{ status: number | null; body: Record<string, unknown> | null }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        agent: false,
        timeout: options.timeoutMs ?? 10_000,
        headers: payload ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          let body: Record<string, unknown> | null;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
          } catch {
            body = null;
          }
          resolve({ status: res.statusCode ?? null, body });
        });
        res.on('error', () => resolve({ status: null, body: null }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: null, body: null }));
    req.end(payload);
  });
}

/** A registered user of the station (POST /g1nostr from the exempt 127.0.0.1), with its secret key. */
export async function registerUser(station: AttackedStation, email: string): Promise<TestKey> {
  const answer = await httpFrom(`${station.url}/g1nostr`, {
    localAddress: '127.0.0.1',
    method: 'POST',
    body: { email },
  });
  if (answer.status !== 200) throw new Error(`registration answered ${answer.status}`);
  return keyFromSecret(nip19.decode(answer.body!.nsec as string).data as Uint8Array);
}

/** Signs with libsecp256k1 (wasm): a throw-away key's notes, or a login answer. */
export function sign(key: TestKey, template: Partial<NostrEvent> & { kind: number }): NostrEvent {
  return finalizeEvent({ created_at: now(), tags: [], content: '', ...template }, key.sk);
}

/** A bare WebSocket client bound to one loopback address, recording what the relay sends it. */
export class Stranger {
  readonly frames: unknown[][] = [];
  closeCode: number | null = null;
  closeReason = '';
  private readonly listeners = new Set<(frame: unknown[]) => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as unknown[];
      this.frames.push(frame);
      for (const listener of this.listeners) listener(frame);
    });
    socket.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
    });
    socket.on('error', () => undefined);
  }

  /** Opens a socket from `localAddress`; resolves once open (a refused one is open, then closed). */
  static connect(url: string, localAddress: string): Promise<Stranger> {
    return Stranger.wrap(new WebSocket(url, { localAddress }));
  }

  /** Records what `socket` (just created) receives; resolves once it is open. */
  static async wrap(socket: WebSocket): Promise<Stranger> {
    const stranger = new Stranger(socket);
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
    return stranger;
  }

  /** Calls `listener` on every frame from now on (frames are still recorded). */
  onFrame(listener: (frame: unknown[]) => void): void {
    this.listeners.add(listener);
  }

  send(...message: unknown[]): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Sends an already-serialised message, so that one big event is stringified once for many sockets. */
  sendRaw(text: string): void {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
  }

  /** The first frame (from `from` on) that satisfies `match`, waiting for it. */
  async next(match: (frame: unknown[]) => boolean, from = 0, timeoutMs = 15_000): Promise<unknown[]> {
    let found: unknown[] | undefined;
    await waitFor(() => (found = this.frames.slice(from).find(match)) !== undefined, timeoutMs);
    return found!;
  }

  ok(id: string, timeoutMs = 15_000): Promise<unknown[]> {
    return this.next((frame) => frame[0] === 'OK' && frame[1] === id, 0, timeoutMs);
  }

  /** Events of a subscription up to its EOSE. */
  async stored(subscription: string): Promise<unknown[]> {
    await this.next((frame) => frame[0] === 'EOSE' && frame[1] === subscription);
    return this.frames
      .filter((frame) => frame[0] === 'EVENT' && frame[1] === subscription)
      .map((frame) => frame[2]);
  }

  close(): void {
    this.socket.terminate();
  }
}

export interface LoginOutcome {
  address: string;
  startedAt: number;
  /** The relay's OK to the kind-22242 answer. */
  published: boolean;
  publishMessage: string;
  /** Milliseconds from the start to the relay connection's opening, and to the relay's OK. */
  connectMs: number;
  publishMs: number;
  /** /api/me answered 200 for the key from this address. */
  ok: boolean;
  /** Answers before the 200 (401 AUTH_NOT_FOUND while the station had not yet seen the answer on its relay). */
  notYet: number;
  /** The last non-200 answer, when the login failed. */
  last: string;
  /** Until the HTTP challenge was answered. */
  challengeMs: number;
  ms: number;
}

/**
 * A UPlanet page's login, as a browser at `address` does it: a challenge from the HTTP API, its signed
 * answer published to the station's relay, then the call that needs the login (GET /api/me?npub=), repeated
 * while the station has not seen the answer yet, for at most `deadlineMs` (a guard against a hang).
 */
export async function loginFrom(
  station: AttackedStation,
  user: TestKey,
  address: string,
  deadlineMs = 20_000,
): Promise<LoginOutcome> {
  const startedAt = Date.now();
  const outcome: LoginOutcome = {
    address,
    startedAt,
    published: false,
    publishMessage: '',
    connectMs: 0,
    publishMs: 0,
    ok: false,
    notYet: 0,
    last: '',
    challengeMs: 0,
    ms: 0,
  };
  const challenge = await httpFrom(`${station.url}/api/nip42/challenge?npub=${user.npub}`, {
    localAddress: address,
  });
  outcome.challengeMs = Date.now() - startedAt;
  if (challenge.status !== 200) {
    outcome.last = `challenge ${challenge.status}`;
    return outcome;
  }
  const answer = sign(user, {
    kind: 22242,
    tags: [
      ['relay', station.relayUrl],
      ['challenge', challenge.body!.challenge as string],
    ],
  });
  let client: Stranger | null = null;
  try {
    client = await Stranger.connect(station.relayUrl, address);
    outcome.connectMs = Date.now() - startedAt;
    client.send('EVENT', answer);
    const ok = await client.ok(answer.id, deadlineMs);
    outcome.published = ok[2] === true;
    outcome.publishMessage = String(ok[3] ?? '');
    outcome.publishMs = Date.now() - startedAt;
  } catch (error) {
    outcome.last = `publish: ${(error as Error).message}`;
    return outcome;
  } finally {
    client?.close();
  }
  while (Date.now() - startedAt < deadlineMs) {
    const me = await httpFrom(`${station.url}/api/me?npub=${user.npub}`, { localAddress: address });
    if (me.status === 200) {
      outcome.ok = true;
      break;
    }
    outcome.last = `${me.status} ${String(me.body?.code ?? '')}`;
    if (me.status !== 401 || me.body?.code !== 'AUTH_NOT_FOUND') break;
    outcome.notYet++;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  outcome.ms = Date.now() - startedAt;
  return outcome;
}

/** Polls /health from 127.0.0.1 every `everyMs` (each probe on its own, with a hang guard) until stopped. */
export function probeHealth(station: AttackedStation, everyMs: number, timeoutMs = 5_000) {
  const probes: { status: number | null; ms: number; live: boolean }[] = [];
  const pending = new Set<Promise<void>>();
  const probe = async () => {
    const started = performance.now();
    try {
      const answer = await fetch(`${station.url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
      const health = (await answer.json()) as Health;
      probes.push({ status: answer.status, ms: performance.now() - started, live: stationLinkLive(health) });
    } catch {
      probes.push({ status: null, ms: performance.now() - started, live: false });
    }
  };
  const timer = setInterval(() => {
    const running = probe().finally(() => pending.delete(running));
    pending.add(running);
  }, everyMs);
  return {
    probes,
    /** Stops probing and waits for the probes under way. */
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return probes;
    },
  };
}

/** The `p`-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}
