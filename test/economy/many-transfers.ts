import type { FixtureTransfer, SquidFixture } from './squid-server.js';

/**
 * The ORIGIN station wallets the default test configuration derives (docs/api-contract.md §4), as in
 * squid.json.
 */
export const ORIGIN_WALLETS = {
  reserve: 'g1LbTdQ7GNtnjba8xbZEYrTECHWVp7nJfVeebscbtAEbx6cM2',
  distribution: 'g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5',
  society: 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ',
};

const START_MS = Date.parse('2023-01-01T08:00:00.000Z');
/** Six-second blocks; one transfer every 1,500 blocks (2.5 h) spreads 10,000 of them over three years. */
const BLOCK_MS = 6_000;
const BLOCKS_APART = 1_500;
const NODE = '12D3KooWQm1nCzFbBDYf2Sg7GQn6bDYJxJt4oFYtmiLcfQnHr8Qk';

/**
 * A long history in the squid's wire format: `count` sales into the distribution wallet and `count` shares
 * into the society wallet, all from the reserve, deterministic. Every 97th transfer shares its block (and so
 * its timestamp) with the one before it, so paging has ties to step through.
 */
export function manyTransfers(count = 10_000, wallets = ORIGIN_WALLETS): SquidFixture {
  const transfers: FixtureTransfer[] = [];
  let block = 1_000;
  for (let i = 0; i < count; i++) {
    if (i % 97 !== 0 || i === 0) block += BLOCKS_APART;
    const timestamp = new Date(START_MS + block * BLOCK_MS).toISOString();
    const customer = `customer${i % 400}@example.org`;
    transfers.push({
      fromId: wallets.reserve,
      toId: wallets.distribution,
      amount: String(100 + ((i * 37) % 5_000)),
      timestamp,
      blockNumber: block,
      comment: { remark: `UPLANET:g1LBF94v:ZENCOIN:${customer}${i % 3 === 0 ? ':MULTIPASS' : ''}` },
    });
    const member = `member${i % 500}@example.org`;
    const kind = i % 4 === 0 ? 'constellation' : 'satellite';
    transfers.push({
      fromId: wallets.reserve,
      toId: wallets.society,
      amount: kind === 'constellation' ? '5400' : '5000',
      timestamp,
      blockNumber: block,
      comment: { remark: `UPLANET:g1LBF94v:SOCIETY:${member}:${kind}${i % 5 === 0 ? `:${NODE}` : ''}` },
    });
  }
  return { accounts: [], transfers };
}
