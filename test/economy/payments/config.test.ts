import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';

describe('payment configuration', () => {
  it('has safe defaults: no command (payments stay queued), 100 Ẑen a day, 2 at once', async () => {
    expect(await loadConfig({ HOME: '/h' })).toMatchObject({
      paymentCommand: null,
      paymentDailyCapZen: 100,
      paymentConcurrency: 2,
      paymentTimeoutSeconds: 120,
      paymentMaxAttempts: 5,
    });
  });

  it('reads the variables and refuses bad values, naming them', async () => {
    const config = await loadConfig({
      HOME: '/h',
      PAYMENT_COMMAND: '/opt/PAYforSURE.sh {dunikey} {amount_g1} {to} {comment}',
      PAYMENT_DAILY_CAP: '20',
      PAYMENT_CONCURRENCY: '4',
      PAYMENT_TIMEOUT: '60',
      PAYMENT_MAX_ATTEMPTS: '3',
    });
    expect(config).toMatchObject({
      paymentDailyCapZen: 20,
      paymentConcurrency: 4,
      paymentTimeoutSeconds: 60,
      paymentMaxAttempts: 3,
    });
    await expect(loadConfig({ HOME: '/h', PAYMENT_CONCURRENCY: '0' })).rejects.toThrow(/PAYMENT_CONCURRENCY/);
    await expect(loadConfig({ HOME: '/h', PAYMENT_TIMEOUT: 'soon' })).rejects.toThrow(/PAYMENT_TIMEOUT/);
    await expect(loadConfig({ HOME: '/h', PAYMENT_DAILY_CAP: '-1' })).rejects.toThrow(/PAYMENT_DAILY_CAP/);
  });
});
