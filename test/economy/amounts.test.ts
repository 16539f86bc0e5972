import { describe, expect, it } from 'vitest';
import { balanceZen, centsToG1, formatG1, transferZen } from '../../src/economy/amounts.js';

describe('Ğ1 → Ẑen conversion', () => {
  it.each([
    [0, 0, '0.00 Ğ1'],
    [100, 0, '1.00 Ğ1'],
    [150, 5, '1.50 Ğ1'],
    [5400, 530, '54.00 Ğ1'],
    [1234, 113.4, '12.34 Ğ1'],
  ])('a balance of %i cents is worth %d Ẑen', (cents, zen, text) => {
    expect(balanceZen(cents)).toBe(zen);
    expect(formatG1(cents)).toBe(text);
  });

  it('a transfer is worth ten times its Ğ1, to the cent', () => {
    expect(transferZen(5000)).toBe(500);
    expect(transferZen(333)).toBe(33.3);
    expect(transferZen(1)).toBe(0.1);
    expect(centsToG1(2550)).toBe(25.5);
  });
});
