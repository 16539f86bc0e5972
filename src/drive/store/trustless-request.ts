import type { IncomingMessage } from 'node:http';
import { InvalidInput } from '../../errors.js';

/**
 * What a Trustless Gateway request asks for (https://specs.ipfs.tech/http-gateways/trustless-gateway/):
 * `?format=raw|car` first, else the best `Accept` entry naming `application/vnd.ipld.raw` or `.car`.
 */
export type TrustlessAsk =
  { format: 'raw' } | { format: 'car'; scope: DagScope; dups: boolean; entityBytes: EntityBytes | null };

export type DagScope = 'all' | 'entity' | 'block';

/** `entity-bytes=from:to`: inclusive offsets, `to` null for `*`; negative ones count from the end. */
export interface EntityBytes {
  from: number;
  to: number | null;
}

export const RAW_TYPE = 'application/vnd.ipld.raw';
export const CAR_TYPE = 'application/vnd.ipld.car';

/** A `format`, `dag-scope`, `entity-bytes` or CAR variant this gateway does not serve (400). */
export const unsupported = (en: string, fr: string) => new InvalidInput('UNSUPPORTED_FORMAT', { en, fr });

/** Only verifiable (`application/vnd.ipld.*` / `vnd.ipfs.*`) types were accepted, none of them served here. */
const notAcceptable = (accept: string) =>
  new InvalidInput('NOT_ACCEPTABLE', {
    en: `None of the accepted types (${accept.slice(0, 200)}) is served; ask for ${RAW_TYPE} or ${CAR_TYPE}.`,
    fr: `Aucun des types acceptés (${accept.slice(0, 200)}) n’est servi ; demandez ${RAW_TYPE} ou ${CAR_TYPE}.`,
  });

interface MediaRange {
  type: string;
  params: Map<string, string>;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((part) => {
      const [type = '', ...rest] = part.split(';').map((s) => s.trim());
      const params = new Map<string, string>();
      for (const p of rest) {
        const at = p.indexOf('=');
        if (at > 0)
          params.set(
            p.slice(0, at).trim().toLowerCase(),
            p
              .slice(at + 1)
              .trim()
              .replace(/"/g, ''),
          );
      }
      const q = Number(params.get('q') ?? '1');
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
    })
    .filter((range) => range.type !== '' && range.q > 0);
}

/** A CAR variant we write: version 1, depth first; `dups` as asked (default n, per the spec). */
function carVariant(params: Map<string, string>): { dups: boolean } | null {
  const version = params.get('version');
  const order = params.get('order');
  const dups = params.get('dups');
  if (version !== undefined && version !== '1') return null;
  if (order !== undefined && order !== 'dfs' && order !== 'unk') return null;
  if (dups !== undefined && dups !== 'y' && dups !== 'n') return null;
  return { dups: dups === 'y' };
}

function fromAccept(accept: string | undefined): { format: 'raw' } | { format: 'car'; dups: boolean } | null {
  if (!accept) return null;
  const ranges = mediaRanges(accept).sort((a, b) => b.q - a.q);
  let verifiableOnly = ranges.length > 0;
  for (const range of ranges) {
    if (range.type === RAW_TYPE) return { format: 'raw' };
    if (range.type === CAR_TYPE) {
      const variant = carVariant(range.params);
      if (variant) return { format: 'car', ...variant };
      continue;
    }
    if (!/^application\/vnd\.ip(ld|fs)\./.test(range.type)) verifiableOnly = false;
  }
  if (verifiableOnly) throw notAcceptable(accept);
  return null;
}

function parseScope(url: URL): DagScope {
  const scope = url.searchParams.get('dag-scope') ?? 'all';
  if (scope === 'all' || scope === 'entity' || scope === 'block') return scope;
  throw unsupported(
    `dag-scope must be all, entity or block, not "${scope.slice(0, 50)}".`,
    `dag-scope vaut all, entity ou block, pas « ${scope.slice(0, 50)} ».`,
  );
}

function parseEntityBytes(text: string | null): EntityBytes | null {
  if (text === null) return null;
  const match = /^(-?\d{1,15}):(-?\d{1,15}|\*)$/.exec(text);
  const from = Number(match?.[1]);
  const to = match?.[2] === '*' ? null : Number(match?.[2]);
  if (!match || (from >= 0 && to !== null && to >= 0 && to < from))
    throw unsupported(
      `entity-bytes must be from:to (integers, or * for the end), not "${text.slice(0, 50)}".`,
      `entity-bytes s’écrit début:fin (entiers, ou * pour la fin), pas « ${text.slice(0, 50)} ».`,
    );
  return { from, to };
}

/** The trustless response asked for, or null for the ordinary (deserialized) one. */
export function trustlessAsk(req: IncomingMessage, url: URL): TrustlessAsk | null {
  const format = url.searchParams.get('format');
  let asked: ReturnType<typeof fromAccept>;
  if (format === null) asked = fromAccept(req.headers.accept);
  else if (format === 'raw') asked = { format: 'raw' };
  else if (format === 'car') {
    const fromHeader = fromAccept(req.headers.accept);
    const dups =
      url.searchParams.get('car-dups') ?? (fromHeader?.format === 'car' && fromHeader.dups ? 'y' : 'n');
    if (dups !== 'y' && dups !== 'n') throw unsupported('car-dups must be y or n.', 'car-dups vaut y ou n.');
    asked = { format: 'car', dups: dups === 'y' };
  } else
    throw unsupported(
      `format=${format.slice(0, 50)} is not served here: use format=raw or format=car.`,
      `format=${format.slice(0, 50)} n’est pas servi ici : utilisez format=raw ou format=car.`,
    );
  if (!asked || asked.format === 'raw') return asked;
  const entityBytes = parseEntityBytes(url.searchParams.get('entity-bytes'));
  const scope = entityBytes ? 'entity' : parseScope(url);
  return { format: 'car', scope, dups: asked.dups, entityBytes };
}
