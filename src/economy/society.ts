import { localTimestamp } from '../clock.js';
import { normaliseEmail } from '../identity/email.js';
import { centsToG1, transferZen } from './amounts.js';
import type { LedgerTransfer } from './ledger.js';

export type PartType = 'constellation' | 'satellite' | 'parts' | 'other';

export interface ParsedShareComment {
  part_type: PartType;
  email: string | null;
  ipfs_node: string | null;
}

export interface SocietyTransfer {
  date: string;
  recipient: string | null;
  amount_g1: number;
  amount_zen: number;
  part_type: PartType;
  ipfs_node: string | null;
  comment: string;
}

export interface SocietyMember {
  email: string;
  total_g1: number;
  total_zen: number;
  shares: number;
  latest_date: string;
  latest_type: PartType;
  latest_amount_g1: number;
  /** Local date (YYYY-MM-DD) the membership paid so far runs out; null when no share carries a duration. */
  membership_end: string | null;
  ipfs_node: string | null;
}

export interface SocietyReport {
  g1pub: string;
  total_outgoing_g1: number;
  total_outgoing_zen: number;
  total_transfers: number;
  members: SocietyMember[];
  transfers: SocietyTransfer[];
  timestamp: string;
}

/** Years of membership one share buys. */
const MEMBERSHIP_YEARS: Partial<Record<PartType, number>> = { satellite: 1, constellation: 3 };

/** IPFS peer ids are base58 or base36 alphanumerics; anything else could break out of the gateway link. */
const PEER_ID = /^[A-Za-z0-9]{16,128}$/;
const EMAIL_IN_TEXT = /[^\s:;,<>()"']+@[^\s:;,<>()"']+/;

/**
 * `UPLANET:<8>:SOCIETY:<email>:<type>[:<IPFSNODEID>]`, read by position (docs/api-contract.md §10), so an
 * e-mail that happens to contain "satellite" says nothing about the share type. Legacy "Parts sociales"
 * comments are `parts`; everything else is `other`.
 */
export function parseShareComment(comment: string | null): ParsedShareComment {
  const text = comment ?? '';
  const fields = text.split(':');
  if ((fields.length === 5 || fields.length === 6) && fields[0] === 'UPLANET' && fields[2] === 'SOCIETY') {
    const email = normaliseEmail(fields[3]);
    const type = fields[4]?.trim().toLowerCase();
    const node = fields[5]?.trim() ?? '';
    return {
      part_type: email && (type === 'constellation' || type === 'satellite') ? type : 'other',
      email,
      ipfs_node: PEER_ID.test(node) ? node : null,
    };
  }
  if (/parts sociales/i.test(text)) {
    return { part_type: 'parts', email: normaliseEmail(EMAIL_IN_TEXT.exec(text)?.[0]), ipfs_node: null };
  }
  return { part_type: 'other', email: null, ipfs_node: null };
}

function addYears(ms: number, years: number): number {
  const date = new Date(ms);
  date.setFullYear(date.getFullYear() + years);
  return date.getTime();
}

interface Share {
  transfer: LedgerTransfer;
  parsed: ParsedShareComment;
}

function summariseMember(email: string, shares: Share[]): SocietyMember {
  const cents = shares.reduce((sum, s) => sum + s.transfer.amountCents, 0);
  const latest = shares.reduce((a, b) => (b.transfer.timestampMs > a.transfer.timestampMs ? b : a));
  let end: number | null = null;
  for (const { transfer, parsed } of shares) {
    const years = MEMBERSHIP_YEARS[parsed.part_type];
    if (years !== undefined) end = Math.max(end ?? 0, addYears(transfer.timestampMs, years));
  }
  return {
    email,
    total_g1: centsToG1(cents),
    total_zen: transferZen(cents),
    shares: shares.length,
    latest_date: localTimestamp(latest.transfer.timestampMs),
    latest_type: latest.parsed.part_type,
    latest_amount_g1: centsToG1(latest.transfer.amountCents),
    membership_end: end === null ? null : localTimestamp(end).slice(0, 10),
    ipfs_node: latest.parsed.ipfs_node,
  };
}

/** Social-capital history: transfers into the society wallet that come from the reserve wallet. */
export function societyReport(
  incoming: readonly LedgerTransfer[],
  wallets: { society: string; reserve: string },
  nowMs: number,
): SocietyReport {
  return societyReadout(incoming, wallets, nowMs).report;
}

/** The report and, for paging, the time of each of its transfers (newest first, as listed). */
export function societyReadout(
  incoming: readonly LedgerTransfer[],
  wallets: { society: string; reserve: string },
  nowMs: number,
): { report: SocietyReport; times: number[] } {
  const shares: Share[] = incoming
    .filter((t) => t.fromId === wallets.reserve && t.toId === wallets.society)
    .map((transfer) => ({ transfer, parsed: parseShareComment(transfer.comment) }))
    .sort((a, b) => b.transfer.timestampMs - a.transfer.timestampMs);

  const byMember = new Map<string, Share[]>();
  for (const share of shares) {
    if (!share.parsed.email) continue;
    const list = byMember.get(share.parsed.email) ?? [];
    list.push(share);
    byMember.set(share.parsed.email, list);
  }
  const members = [...byMember].map(([email, list]) => summariseMember(email, list));
  members.sort((a, b) => b.total_g1 - a.total_g1 || a.email.localeCompare(b.email));

  const cents = shares.reduce((sum, s) => sum + s.transfer.amountCents, 0);
  const report: SocietyReport = {
    g1pub: wallets.society,
    total_outgoing_g1: centsToG1(cents),
    total_outgoing_zen: transferZen(cents),
    total_transfers: shares.length,
    members,
    transfers: shares.map(({ transfer, parsed }) => ({
      date: localTimestamp(transfer.timestampMs),
      recipient: parsed.email,
      amount_g1: centsToG1(transfer.amountCents),
      amount_zen: transferZen(transfer.amountCents),
      part_type: parsed.part_type,
      ipfs_node: parsed.ipfs_node,
      comment: transfer.comment ?? '',
    })),
    timestamp: localTimestamp(nowMs),
  };
  return { report, times: shares.map((s) => s.transfer.timestampMs) };
}
