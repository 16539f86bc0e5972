import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EventTemplate, NostrEvent, VerifiedEvent } from 'nostr-tools';

/**
 * Schnorr signatures (libsecp256k1 in nostr-wasm) on a thread of their own. A check or a signature costs
 * about half a millisecond of CPU: on the request path of every Blossom upload (the token) and after it (the
 * NIP-94 announcement) that was an eighth of a busy station's main thread, while its other cores waited.
 * Jobs asked for during one turn of the event loop go to the thread as one message and come back as one.
 * When the thread cannot start or dies, `null` answers tell callers to do the work themselves.
 */

type Job =
  | { op: 'verify'; event: NostrEvent }
  | { op: 'sign'; event: Omit<NostrEvent, 'id' | 'pubkey' | 'sig'>; secretKey: Uint8Array };
type Answer = boolean | NostrEvent | null;

// The thread loads nostr-wasm by its file URL: a data: module cannot resolve package names.
const wasmUrl = pathToFileURL(createRequire(import.meta.url).resolve('nostr-wasm/gzipped')).href;

const THREAD_SOURCE = `
import { parentPort } from 'node:worker_threads';
import { initNostrWasm } from ${JSON.stringify(wasmUrl)};
const wasm = await initNostrWasm();
const run = (job) => {
  try {
    if (job.op === 'verify') {
      wasm.verifyEvent(job.event);
      return true;
    }
    wasm.finalizeEvent(job.event, job.secretKey);
    return job.event;
  } catch {
    return job.op === 'verify' ? false : null;
  }
};
parentPort.on('message', (jobs) => parentPort.postMessage(jobs.map(run)));
`;

interface Waiting {
  job: Job;
  resolve: (answer: Answer) => void;
}

export class SchnorrThread {
  /** Jobs sent and messages they took (tests check that a burst shares messages). */
  readonly stats = { jobs: 0, messages: 0 };
  private worker: Worker | null;
  private open: Waiting[] = [];
  /** Batches sent, answered in order. */
  private readonly sent: Waiting[][] = [];
  /** Jobs sent and not answered yet. */
  private outstanding = 0;

  /** Jobs asked for and not answered yet: the pool gives new work to the least loaded thread. */
  get load(): number {
    return this.outstanding + this.open.length;
  }

  constructor() {
    try {
      this.worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(THREAD_SOURCE)}`));
    } catch {
      this.worker = null;
      return;
    }
    this.worker.on('message', (answers: Answer[]) => {
      const batch = this.sent.shift();
      this.outstanding -= batch?.length ?? 0;
      if (this.sent.length === 0) this.worker?.unref();
      batch?.forEach((waiting, i) => waiting.resolve(answers[i] ?? null));
    });
    const fail = () => this.fail();
    this.worker.on('error', fail);
    this.worker.on('exit', fail);
    // The thread keeps the process alive only while it has work: an idle one never delays a stop. After the
    // listeners: attaching a message listener refs the thread again.
    this.worker.unref();
  }

  /** True, false, or null: the thread is not there, check on this one. */
  async verify(event: NostrEvent): Promise<boolean | null> {
    const { id, pubkey, created_at, kind, tags, content, sig } = event;
    const answer = await this.ask({
      op: 'verify',
      event: { id, pubkey, created_at, kind, tags, content, sig },
    });
    return typeof answer === 'boolean' ? answer : null;
  }

  /** The signed event, or null: the thread is not there (or the key is not a valid secret key). */
  async sign(template: EventTemplate, secretKey: Uint8Array): Promise<VerifiedEvent | null> {
    const { kind, created_at, tags, content } = template;
    const answer = await this.ask({ op: 'sign', event: { kind, created_at, tags, content }, secretKey });
    return typeof answer === 'object' && answer !== null ? (answer as VerifiedEvent) : null;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.fail();
    await worker?.terminate();
  }

  private ask(job: Job): Promise<Answer> {
    if (!this.worker) return Promise.resolve(null);
    return new Promise((resolve) => {
      if (this.open.length === 0) setImmediate(() => this.send());
      this.open.push({ job, resolve });
    });
  }

  private send(): void {
    const batch = this.open;
    this.open = [];
    if (batch.length === 0) return;
    if (!this.worker) {
      batch.forEach((waiting) => waiting.resolve(null));
      return;
    }
    try {
      this.worker.postMessage(batch.map((waiting) => waiting.job));
    } catch {
      // Something that does not cross threads: these jobs are done in place, the thread stays.
      batch.forEach((waiting) => waiting.resolve(null));
      return;
    }
    if (this.sent.length === 0) this.worker.ref();
    this.sent.push(batch);
    this.outstanding += batch.length;
    this.stats.jobs += batch.length;
    this.stats.messages += 1;
  }

  /** The thread is gone: what it was asked is answered null (callers do it themselves), and so is what comes. */
  private fail(): void {
    this.worker = null;
    this.outstanding = 0;
    for (const batch of this.sent.splice(0)) batch.forEach((waiting) => waiting.resolve(null));
    this.send();
  }
}

/** The process's signature threads (one unless `useSignatureThreads` said more), started at the first use. */
let size = 1;
let shared: SchnorrPool | null = null;
export function schnorrThread(): SchnorrPool {
  shared ??= new SchnorrPool(size);
  return shared;
}

/**
 * How many signature threads this process's pool starts with; only before its first use (the relay thread
 * sets RELAY_SIGNATURE_THREADS when it starts). A later call changes nothing.
 */
export function useSignatureThreads(count: number): void {
  size = Math.max(1, Math.floor(count));
}

/** Several signature threads behind the one-thread interface: each job goes to the least loaded thread. */
export class SchnorrPool {
  readonly threads: SchnorrThread[];

  constructor(count: number) {
    this.threads = Array.from({ length: Math.max(1, count) }, () => new SchnorrThread());
  }

  verify(event: NostrEvent): Promise<boolean | null> {
    return this.leastLoaded().verify(event);
  }

  sign(template: EventTemplate, secretKey: Uint8Array): Promise<VerifiedEvent | null> {
    return this.leastLoaded().sign(template, secretKey);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }

  private leastLoaded(): SchnorrThread {
    return this.threads.reduce((best, thread) => (thread.load < best.load ? thread : best));
  }
}
