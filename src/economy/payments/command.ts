import { execFile } from 'node:child_process';

/** The values a payment command receives (CONTRACT §9). */
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

/** Runs one transfer without a shell, within a time limit; never throws. */
export function runPaymentCommand(
  argv: readonly string[],
  options: { timeoutMs: number; env?: NodeJS.ProcessEnv },
): Promise<CommandOutcome> {
  const [program, ...rest] = argv;
  return new Promise((resolve) => {
    execFile(
      program ?? '',
      rest,
      {
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 256 * 1024,
        env: options.env ?? process.env,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        const output = tail(`${stdout}${stderr ? `\n${stderr}` : ''}`.trim());
        if (!error) return resolve({ kind: 'sent', output });
        const failure = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
        // A failed spawn (ENOENT, EACCES…) means the program never ran, so nothing was paid.
        if (failure.syscall?.startsWith('spawn'))
          return resolve({
            kind: 'failed',
            error: `cannot run the command: ${String(failure.code)}`,
            output,
          });
        if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER')
          return resolve({ kind: 'unknown', error: 'killed: too much output', output });
        if (failure.killed || failure.signal) {
          const why = failure.killed ? 'killed: time limit reached' : `killed by ${failure.signal}`;
          return resolve({ kind: 'unknown', error: why, output });
        }
        resolve({ kind: 'failed', error: `exit code ${String(failure.code)}`, output });
      },
    );
  });
}
