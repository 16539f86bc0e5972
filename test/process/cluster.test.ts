import { describe, expect, it } from 'vitest';
import { isLaterClusterInstance } from '../../src/process/cluster.js';

describe('isLaterClusterInstance', () => {
  it('is true only for a cluster worker PM2 numbered past 0', () => {
    expect(isLaterClusterInstance({ NODE_APP_INSTANCE: '1' }, true)).toBe(true);
    expect(isLaterClusterInstance({ NODE_APP_INSTANCE: '3' }, true)).toBe(true);
    expect(isLaterClusterInstance({ NODE_APP_INSTANCE: '0' }, true)).toBe(false);
    // Not numbered by PM2 (plain node cluster): every worker decides as a lone process would.
    expect(isLaterClusterInstance({}, true)).toBe(false);
    expect(isLaterClusterInstance({ NODE_APP_INSTANCE: '' }, true)).toBe(false);
    // PM2 numbers fork-mode processes too; they do not share ports, so each may run its relay.
    expect(isLaterClusterInstance({ NODE_APP_INSTANCE: '1' }, false)).toBe(false);
  });

  it('reads this process by default (a test runner is no cluster worker)', () => {
    expect(isLaterClusterInstance()).toBe(false);
  });
});
