import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import {
  commandArgv,
  parseTemplate,
  PaymentCommandError,
  runPaymentCommand,
} from '../../../src/economy/payments/command.js';
import { tempDir } from '../../helpers/temp.js';

const ARGS = {
  dunikey: '/d/a b/.secret.dunikey',
  amount_g1: '0.5',
  cents: 50,
  to: 'g1xyz',
  comment: 'UPLANET:x;rm -rf /',
};

describe('PAYMENT_COMMAND template', () => {
  it('splits words and quotes like a shell would, nothing more', () => {
    expect(parseTemplate(`/opt/PAYforSURE.sh {dunikey} {amount_g1} {to} {comment}`)).toEqual([
      '/opt/PAYforSURE.sh',
      '{dunikey}',
      '{amount_g1}',
      '{to}',
      '{comment}',
    ]);
    expect(parseTemplate(`'/opt/my tools/pay' --amount="{cents} cents"  $HOME`)).toEqual([
      '/opt/my tools/pay',
      '--amount={cents} cents',
      '$HOME',
    ]);
    expect(parseTemplate(`pay ''`)).toEqual(['pay', '']);
  });

  it('refuses an unclosed quote or an empty template, and so does start-up', async () => {
    expect(() => parseTemplate(`pay "{to}`)).toThrow(PaymentCommandError);
    expect(() => parseTemplate('   ')).toThrow(PaymentCommandError);
    await expect(loadConfig({ HOME: '/h', PAYMENT_COMMAND: `pay '{to}` })).rejects.toThrow(/PAYMENT_COMMAND/);
  });

  it('replaces placeholders inside each word, so a value is never split or interpreted', () => {
    expect(
      commandArgv(['pay', '{dunikey}', '--cents={cents}', '{to}', '{comment}', '{unknown}'], ARGS),
    ).toEqual(['pay', '/d/a b/.secret.dunikey', '--cents=50', 'g1xyz', 'UPLANET:x;rm -rf /', '{unknown}']);
  });
});

describe('running the payment command (no shell)', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const script = async (name: string, body: string) => {
    const path = join(dir.path, name);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  };
  beforeAll(async () => {
    dir = await tempDir('pay-cmd-');
  });
  afterAll(() => dir.cleanup());

  it('passes each argument as is and reports success with the output', async () => {
    const out = join(dir.path, 'argv');
    const path = await script(
      'ok.sh',
      `for a in "$@"; do printf '%s\\n' "$a" >> '${out}'; done; echo tx-123`,
    );
    const outcome = await runPaymentCommand(commandArgv([path, '{dunikey}', '{comment}'], ARGS), {
      timeoutMs: 5_000,
    });
    expect(outcome).toEqual({ kind: 'sent', output: 'tx-123' });
    expect((await readFile(out, 'utf8')).split('\n')).toEqual([ARGS.dunikey, ARGS.comment, '']);
  });

  it('calls a non-zero exit or a missing program a failure (nothing was paid)', async () => {
    const path = await script('fail.sh', 'echo "insufficient funds" >&2; exit 4');
    expect(await runPaymentCommand([path], { timeoutMs: 5_000 })).toEqual({
      kind: 'failed',
      error: 'exit code 4',
      output: 'insufficient funds',
    });
    expect(await runPaymentCommand([join(dir.path, 'missing')], { timeoutMs: 5_000 })).toMatchObject({
      kind: 'failed',
      error: 'cannot run the command: ENOENT',
    });
  });

  it('calls a command killed at its time limit or by a signal unknown (it may have paid)', async () => {
    const slow = await script('slow.sh', 'sleep 5');
    expect(await runPaymentCommand([slow], { timeoutMs: 200 })).toMatchObject({ kind: 'unknown' });
    const crash = await script('crash.sh', 'kill -9 $$');
    expect(await runPaymentCommand([crash], { timeoutMs: 5_000 })).toMatchObject({
      kind: 'unknown',
      error: 'killed by SIGKILL',
    });
  });
});
