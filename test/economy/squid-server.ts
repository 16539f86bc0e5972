import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureTransfer {
  fromId: string;
  toId: string;
  amount: string | number;
  timestamp: string;
  blockNumber: number;
  comment: { remark: string } | null;
}

export interface SquidFixture {
  accounts: { id: string; totalBalance: string | number }[];
  transfers: FixtureTransfer[];
}

export function loadFixture(): SquidFixture {
  return JSON.parse(readFileSync(new URL('./fixtures/squid.json', import.meta.url), 'utf8')) as SquidFixture;
}

/**
 * The query shapes of docs/api-contract.md §10, whitespace-insensitive: anything else gets a GraphQL error
 * back.
 */
const ACCOUNTS =
  /^query \w+\(\$a: String!\) \{ accounts\(condition: \{id: \$a\}\) \{ nodes \{ id totalBalance \} \} \}$/;
const TRANSFERS =
  /^query \w+\(\$a: String!, \$n: Int!, \$cursor: Cursor\) \{ transfers\(condition: \{toId: \$a\}, orderBy: BLOCK_NUMBER_DESC, first: \$n, after: \$cursor\) \{ pageInfo \{ hasNextPage endCursor \} nodes \{ fromId toId amount timestamp blockNumber comment \{ remark \} \} \} \}$/;

export type SquidMode = 'ok' | 'http-500' | 'graphql-error' | 'hang';

export interface SquidRequest {
  operation: 'accounts' | 'transfers';
  variables: Record<string, unknown>;
}

/** PostGraphile cursors are opaque base64 strings; ours encode the offset the next page starts at. */
const encodeCursor = (offset: number) => Buffer.from(JSON.stringify(['natural', offset])).toString('base64');
function decodeCursor(cursor: unknown): number | null {
  if (cursor === null || cursor === undefined) return 0;
  try {
    const [kind, offset] = JSON.parse(Buffer.from(String(cursor), 'base64').toString()) as [string, number];
    return kind === 'natural' && Number.isInteger(offset) && offset >= 0 ? offset : null;
  } catch {
    return null;
  }
}

/**
 * A local stand-in for the Duniter v2s squid: GraphQL over HTTP POST on 127.0.0.1, answering exactly the
 * contract's queries in PostGraphile's response shape from a fixture. Tests can make it fail, hang, or
 * hold answers until released, and count what it was asked.
 */
export class FakeSquid {
  readonly requests: SquidRequest[] = [];
  /** Every HTTP request received, answered or not. */
  hits = 0;
  mode: SquidMode = 'ok';
  private held: (() => void)[] = [];
  private holding = false;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly fixture: SquidFixture,
  ) {}

  static async start(fixture: SquidFixture = loadFixture()): Promise<FakeSquid> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const squid = new FakeSquid(server, `http://127.0.0.1:${port}/v1/graphql`, structuredClone(fixture));
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void squid.handle(req, res));
    return squid;
  }

  count(operation: SquidRequest['operation']): number {
    return this.requests.filter((r) => r.operation === operation).length;
  }

  /** Answers wait until `release()`. */
  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    this.hits++;
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (this.mode === 'hang') return;
    if (this.mode === 'http-500') return void res.writeHead(500).end('Internal Server Error');
    if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/json')) {
      return void res.writeHead(405).end();
    }
    const body = JSON.parse(Buffer.concat(chunks).toString()) as {
      query: string;
      variables: Record<string, unknown>;
    };
    const answer = this.mode === 'graphql-error' ? error('Database unavailable') : this.answer(body);
    const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    if (this.holding) this.held.push(send);
    else send();
  }

  private answer({ query, variables }: { query: string; variables: Record<string, unknown> }): unknown {
    const text = query.replace(/\s+/g, ' ').trim();
    if (ACCOUNTS.test(text) && typeof variables.a === 'string') {
      this.requests.push({ operation: 'accounts', variables });
      return { data: { accounts: { nodes: this.fixture.accounts.filter((a) => a.id === variables.a) } } };
    }
    const first = variables.n;
    const offset = decodeCursor(variables.cursor);
    if (
      TRANSFERS.test(text) &&
      typeof variables.a === 'string' &&
      Number.isInteger(first) &&
      offset !== null
    ) {
      this.requests.push({ operation: 'transfers', variables });
      const all = this.fixture.transfers
        .filter((t) => t.toId === variables.a)
        .sort((a, b) => b.blockNumber - a.blockNumber);
      const nodes = all.slice(offset, offset + (first as number));
      const end = offset + nodes.length;
      return {
        data: {
          transfers: {
            pageInfo: { hasNextPage: end < all.length, endCursor: nodes.length ? encodeCursor(end) : null },
            nodes,
          },
        },
      };
    }
    return error(`Unexpected query or variables: ${text.slice(0, 80)}`);
  }
}

function error(message: string) {
  return { errors: [{ message, locations: [{ line: 1, column: 1 }] }], data: null };
}

/** A loopback URL nothing listens on: connections are refused, as with an indexer that is down. */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1/graphql`;
}
