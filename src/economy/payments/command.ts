import { spawn } from 'node:child_process';
import { limitGroup } from '../../process/group.js';

/** The values a payment command receives (docs/api-contract.md §9). */
export interface PaymentArgs {
  /** Absolute path of the payer's `.secret.dunikey`; the command reads the key, this process never does. */
  dunikey: string;
  amount_g1: string;
  cents: number;
  to: string;
  comment: string;
}

/** How one run ended, as far as this process can tell. */
export type CommandOutcome =
  | { kind: 'sent'; output: string }
  /** The command said it failed (non-zero exit) or never started: nothing reached the chain, retry. */
  | { kind: 'failed'; error: string; output: string }
  /** Killed (time limit, signal) while it ran: it may or may not have paid. */
  | { kind: 'unknown'; error: string; output: string };

export class PaymentCommandError extends Error {
  readonly code = 'BAD_PAYMENT_COMMAND';
}

const PLACEHOLDER = /\{(dunikey|amount_g1|cents|to|comment)\}/g;
const OUTPUT_TAIL = 500;
/** Per stream: a command printing more is stopped. */
const MAX_OUTPUT = 256 * 1024;
const PIPE_GRACE_MS = 1_000;

/**
 * Splits a `PAYMENT_COMMAND` template into program and arguments, as a shell would for plain words and
 * '…' / "…" quoting (nothing else: no variables, globbing or escapes, because no shell ever runs it).
 * Placeholders are replaced inside each word afterwards, so a value can never become two arguments.
 */
export function parseTemplate(template: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (const char of template) {
    if (quote) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote) throw new PaymentCommandError(`PAYMENT_COMMAND has an unclosed ${quote} quote`);
  if (inWord) words.push(current);
  if (words.length === 0 || !words[0]) throw new PaymentCommandError('PAYMENT_COMMAND names no program');
  return words;
}

/** The argv of one transfer: every placeholder replaced, word by word. */
export function commandArgv(words: readonly string[], args: PaymentArgs): string[] {
  const values: Record<string, string> = {
    dunikey: args.dunikey,
    amount_g1: args.amount_g1,
    cents: String(args.cents),
    to: args.to,
    comment: args.comment,
  };
  return words.map((word) => word.replace(PLACEHOLDER, (_match, name: string) => values[name] ?? ''));
}

function tail(text: string): string {
  return text.length > OUTPUT_TAIL ? text.slice(-OUTPUT_TAIL) : text;
}

/** Collects a child's output, up to `max` bytes; `over` is set once more arrived. */
function collect(stream: NodeJS.ReadableStream | null, max: number, over: () => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  stream?.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > max) over();
    else chunks.push(chunk);
  });
  return () => Buffer.concat(chunks).toString('utf8');
}

export interface RunOptions {
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL of the command's process group at the time limit. */
  killGraceMs?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs one transfer without a shell, in its own process group, within a time limit; never throws. At the
 * limit the whole group gets SIGTERM, then SIGKILL: the command's own children (the real transfer) end
 * with it, and so do stragglers once it exits.
 */
export function runPaymentCommand(argv: readonly string[], options: RunOptions): Promise<CommandOutcome> {
  const [program, ...rest] = argv;
  return new Promise((resolve) => {
    const child = spawn(program ?? '', rest, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      windowsHide: true,
    });
    const group = limitGroup(child, { timeoutMs: options.timeoutMs, graceMs: options.killGraceMs ?? 5_000 });
    let tooMuch = false;
    const overflow = () => {
      tooMuch = true;
      group.stop();
    };
    const stdout = collect(child.stdout, MAX_OUTPUT, overflow);
    const stderr = collect(child.stderr, MAX_OUTPUT, overflow);
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let settled = false;
    const settle = (outcome: CommandOutcome) => {
      if (settled) return;
      settled = true;
      group.end();
      resolve(outcome);
    };
    const output = () => {
      const err = stderr();
      return tail(`${stdout()}${err ? `\n${err}` : ''}`.trim());
    };
    // A failed spawn (ENOENT, EACCES…) means the program never ran, so nothing was paid.
    child.once('error', (error: NodeJS.ErrnoException) =>
      settle({ kind: 'failed', error: `cannot run the command: ${String(error.code)}`, output: output() }),
    );
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // Stragglers holding the pipes would keep 'close' from ever coming: end the group, and stop reading
      // soon after in case one escaped it (setsid).
      group.end();
      setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, PIPE_GRACE_MS).unref();
    });
    child.once('close', () => {
      if (!exit) return;
      if (tooMuch) return settle({ kind: 'unknown', error: 'killed: too much output', output: output() });
      if (group.timedOut)
        return settle({ kind: 'unknown', error: 'killed: time limit reached', output: output() });
      if (exit.signal)
        return settle({ kind: 'unknown', error: `killed by ${exit.signal}`, output: output() });
      if (exit.code === 0) return settle({ kind: 'sent', output: output() });
      settle({ kind: 'failed', error: `exit code ${String(exit.code)}`, output: output() });
    });
  });
}
