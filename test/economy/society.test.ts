import { describe, expect, it } from 'vitest';
import type { LedgerTransfer } from '../../src/economy/ledger.js';
import { parseShareComment, societyReport } from '../../src/economy/society.js';

const NODE = '12D3KooWQm1nCzFbBDYf2Sg7GQn6bDYJxJt4oFYtmiLcfQnHr8Qk';
const RESERVE = 'g1LbTdQ7GNtnjba8xbZEYrTECHWVp7nJfVeebscbtAEbx6cM2';
const SOCIETY = 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ';

describe('share comments, read by position', () => {
  it.each([
    [
      `UPLANET:g1LBF94v:SOCIETY:alice@example.org:constellation:${NODE}`,
      { part_type: 'constellation', email: 'alice@example.org', ipfs_node: NODE },
    ],
    [
      'UPLANET:g1LBF94v:SOCIETY:bob@example.org:satellite',
      { part_type: 'satellite', email: 'bob@example.org', ipfs_node: null },
    ],
    [
      'UPLANET:g1LBF94v:SOCIETY:satellite@example.org:constellation',
      { part_type: 'constellation', email: 'satellite@example.org', ipfs_node: null },
    ],
    ['Parts sociales carol@example.org', { part_type: 'parts', email: 'carol@example.org', ipfs_node: null }],
    ['parts sociales 2022', { part_type: 'parts', email: null, ipfs_node: null }],
    ['satellite@example.org', { part_type: 'other', email: null, ipfs_node: null }],
    ['Merci pour le café', { part_type: 'other', email: null, ipfs_node: null }],
    [null, { part_type: 'other', email: null, ipfs_node: null }],
    [
      'UPLANET:g1LBF94v:SOCIETY:dan@example.org:platinum',
      { part_type: 'other', email: 'dan@example.org', ipfs_node: null },
    ],
  ])('%s', (comment, expected) => {
    expect(parseShareComment(comment)).toEqual(expected);
  });

  it('rejects markup, extra fields and unsafe node ids', () => {
    expect(
      parseShareComment('UPLANET:x:SOCIETY:<script>alert(1)</script>@x.org:satellite:"><img src=x>'),
    ).toEqual({ part_type: 'other', email: null, ipfs_node: null });
    expect(parseShareComment('UPLANET:x:SOCIETY:eve@example.org:satellite:javascript:alert(3)')).toEqual({
      part_type: 'other',
      email: null,
      ipfs_node: null,
    });
    expect(parseShareComment('UPLANET:x:SOCIETY:eve@example.org:satellite:../../etc').ipfs_node).toBeNull();
  });
});

describe('society report', () => {
  const at = (iso: string, block: number, cents: number, comment: string | null, from = RESERVE) =>
    ({
      fromId: from,
      toId: SOCIETY,
      amountCents: cents,
      timestampMs: Date.parse(iso),
      blockNumber: block,
      comment,
    }) satisfies LedgerTransfer;

  it('sums members and extends membership by 1 year (satellite) or 3 years (constellation)', () => {
    const report = societyReport(
      [
        at('2025-09-01T10:00:00Z', 40, 5000, 'UPLANET:x:SOCIETY:bob@example.org:satellite'),
        at('2024-05-10T10:00:00Z', 10, 5400, `UPLANET:x:SOCIETY:alice@example.org:constellation:${NODE}`),
        at('2025-02-01T10:00:00Z', 30, 5000, 'UPLANET:x:SOCIETY:bob@example.org:satellite'),
        at('2025-03-01T10:00:00Z', 35, 99900, 'UPLANET:x:SOCIETY:mallory@example.org:constellation', SOCIETY),
      ],
      { society: SOCIETY, reserve: RESERVE },
      Date.parse('2025-11-01T00:00:00Z'),
    );
    expect(report.total_transfers).toBe(3);
    expect(report.total_outgoing_g1).toBe(154);
    expect(report.total_outgoing_zen).toBe(1540);
    expect(report.members.map((m) => [m.email, m.total_g1, m.shares, m.membership_end])).toEqual([
      ['bob@example.org', 100, 2, '2026-09-01'],
      ['alice@example.org', 54, 1, '2027-05-10'],
    ]);
    expect(report.members[1]).toMatchObject({
      latest_type: 'constellation',
      ipfs_node: NODE,
      total_zen: 540,
    });
    expect(report.transfers.map((t) => t.date.slice(0, 10))).toEqual([
      '2025-09-01',
      '2025-02-01',
      '2024-05-10',
    ]);
  });
});
