import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN_UPLANETNAME } from '../../src/config/config.js';
import { runPaymentCommand } from '../../src/economy/payments/command.js';
import { UserStore } from '../../src/identity/user-store.js';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { publish, startTestRelay, waitFor } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';
import { addUser, like, startInstance, waitForStatus, type Instance } from '../streams/payment-harness.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The payment command's timeout ends its whole process group, not only the direct child. */
describe('payment command time limit', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay | undefined;
  let station: Instance | undefined;
  const pids: number[] = [];

  beforeEach(async () => {
    dir = await tempDir('pay-group-');
  });
  afterEach(async () => {
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await station?.stop();
    station = undefined;
    await relay?.close();
    relay = undefined;
    await dir.cleanup();
  });

  /** A command whose real work is a grandchild (`sleep 1000`), its pid written to `grandchild.pid`. */
  async function commandWithGrandchild(
    finish: string,
  ): Promise<{ script: string; pid: () => Promise<number> }> {
    const pidFile = join(dir.path, 'grandchild.pid');
    const script = join(dir.path, 'pay.sh');
    await writeFile(script, `#!/bin/sh\nsleep 1000 &\necho $! > '${pidFile}'\n${finish}\n`);
    await chmod(script, 0o755);
    return {
      script,
      pid: async () => {
        await waitFor(async () => /^\d+\n$/.test(await readFile(pidFile, 'utf8').catch(() => '')));
        const pid = Number(await readFile(pidFile, 'utf8'));
        pids.push(pid);
        return pid;
      },
    };
  }

  it('kills the grandchild when the command times out', async () => {
    const command = await commandWithGrandchild('wait');
    const outcome = await runPaymentCommand([command.script], { timeoutMs: 300, killGraceMs: 500 });
    expect(outcome).toMatchObject({ kind: 'unknown', error: 'killed: time limit reached' });
    const pid = await command.pid();
    await waitFor(() => !alive(pid));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('does not wait for a straggler holding the output pipe once the command has exited', async () => {
    const command = await commandWithGrandchild('echo transfer accepted');
    const outcome = await runPaymentCommand([command.script], { timeoutMs: 60_000 });
    expect(outcome).toEqual({ kind: 'sent', output: 'transfer accepted' });
    const pid = await command.pid();
    await waitFor(() => !alive(pid));
  });

  it('through the executor: PAYMENT_TIMEOUT interrupts the payment and ends the group', async () => {
    relay = await startTestRelay();
    const users = await UserStore.open(join(dir.path, 'game'), {
      uplanetName: ORIGIN_UPLANETNAME,
      watch: false,
    });
    const alice = await addUser(users, 'alice@example.org');
    const bob = await addUser(users, 'bob@example.org');
    users.close();
    const command = await commandWithGrandchild('wait');
    station = await startInstance({
      root: dir.path,
      relayUrl: relay.url,
      env: { PAYMENT_COMMAND: `${command.script} {to}`, PAYMENT_TIMEOUT: '1' },
    });
    const reaction = like(alice.key, bob.key.hex);
    await publish(relay.url, reaction);
    const record = await waitForStatus(station, reaction.id, 'interrupted');
    expect(record.last_error).toBe('killed: time limit reached');
    const pid = await command.pid();
    await waitFor(() => !alive(pid));
  });
});
