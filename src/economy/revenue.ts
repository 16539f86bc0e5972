import { localTimestamp } from '../clock.js';
import { InvalidInput } from '../errors.js';
import { centsToG1, transferZen } from './amounts.js';
import type { LedgerTransfer } from './ledger.js';

export interface RevenueTransaction {
  date: string;
  year: string;
  customer_email: string | null;
  amount_g1: number;
  amount_zen: number;
  transaction_type: string;
  comment: string;
}

export interface YearSummary {
  year: string;
  total_revenue_g1: number;
  total_revenue_zen: number;
  total_transactions: number;
}

export interface RevenueReport {
  g1pub: string;
  filter_year: string;
  total_revenue_g1: number;
  total_revenue_zen: number;
  total_transactions: number;
  yearly_summary: YearSummary[];
  transactions: RevenueTransaction[];
  timestamp: string;
}

/** `all` (or nothing) for every year, else exactly four digits; anything else is the client's mistake. */
export function parseYearFilter(year: string | undefined): string {
  if (year === undefined || year === '' || year === 'all') return 'all';
  if (/^\d{4}$/.test(year)) return year;
  throw new InvalidInput('INVALID_YEAR', {
    en: 'year must be a four-digit year (e.g. 2025) or "all".',
    fr: 'year doit être une année à quatre chiffres (par exemple 2025) ou « all ».',
  });
}

interface Sale {
  transfer: LedgerTransfer;
  year: string;
}

function totals(sales: Sale[]) {
  const cents = sales.reduce((sum, s) => sum + s.transfer.amountCents, 0);
  return {
    total_revenue_g1: centsToG1(cents),
    total_revenue_zen: transferZen(cents),
    total_transactions: sales.length,
  };
}

/** The customer is the comment field right after `<marker>:`, as the station's sales comments write it. */
function customerOf(comment: string, marker: string): string | null {
  const after = comment.split(`${marker}:`)[1];
  const field = after?.split(':')[0]?.trim();
  return field ? field.slice(0, 254) : null;
}

export interface RevenueSettings {
  distribution: string;
  reserve: string;
  marker: string;
  filterYear: string;
}

/** Sales revenue: transfers into the distribution wallet from the reserve wallet carrying the sales marker. */
export function revenueReport(
  incoming: readonly LedgerTransfer[],
  settings: RevenueSettings,
  nowMs: number,
): RevenueReport {
  return revenueReadout(incoming, settings, nowMs).report;
}

/** The report and, for paging, the time of each of its transactions (newest first, as listed). */
export function revenueReadout(
  incoming: readonly LedgerTransfer[],
  settings: RevenueSettings,
  nowMs: number,
): { report: RevenueReport; times: number[] } {
  const { distribution, reserve, marker, filterYear } = settings;
  const sales: Sale[] = incoming
    .filter((t) => t.fromId === reserve && t.toId === distribution && t.comment?.includes(marker))
    .map((transfer) => ({ transfer, year: localTimestamp(transfer.timestampMs).slice(0, 4) }))
    .sort((a, b) => b.transfer.timestampMs - a.transfer.timestampMs);

  const byYear = new Map<string, Sale[]>();
  for (const sale of sales) {
    const list = byYear.get(sale.year) ?? [];
    list.push(sale);
    byYear.set(sale.year, list);
  }
  const yearly = [...byYear]
    .map(([year, list]) => ({ year, ...totals(list) }))
    .sort((a, b) => b.year.localeCompare(a.year));

  const selected = filterYear === 'all' ? sales : (byYear.get(filterYear) ?? []);
  const report: RevenueReport = {
    g1pub: distribution,
    filter_year: filterYear,
    ...totals(selected),
    yearly_summary: yearly,
    transactions: selected.map(({ transfer, year }) => ({
      date: localTimestamp(transfer.timestampMs),
      year,
      customer_email: customerOf(transfer.comment ?? '', marker),
      amount_g1: centsToG1(transfer.amountCents),
      amount_zen: transferZen(transfer.amountCents),
      transaction_type: marker,
      comment: transfer.comment ?? '',
    })),
    timestamp: localTimestamp(nowMs),
  };
  return { report, times: selected.map((s) => s.transfer.timestampMs) };
}
