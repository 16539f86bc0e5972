import { createHash, randomBytes } from 'node:crypto';

/** One HTTP answer as the workload needs it: its status and body (JSON when it parses). */
export interface Answer {
  status: number;
  body: unknown;
}

/** A drive as a client reaches it: uploads, deletes and listings of one user's drive. */
export interface DriveApi {
  upload(name: string, bytes: Buffer): Promise<Answer>;
  remove(path: string): Promise<Answer>;
  list(): Promise<Answer>;
}

export interface Listing {
  files: { path: string; sha256: string; cid: string }[];
  total_files: number;
  root_cid: string | null;
}

export interface RaceResult {
  /** Path → sha256 of every upload answered 200 and not deleted by a delete answered 200. */
  acknowledged: Map<string, string>;
  /** Paths whose last request got no answer (the process died under it): either outcome is right. */
  uncertain: Set<string>;
  uploads: number;
  deletes: number;
  listings: number;
  /** Answers by status, every request of the run. */
  statuses: Map<number, number>;
  /** 5xx answers by status and code (`503 DRIVE_BUSY`), to say which failure it was. */
  serverCodes?: Map<string, number>;
  /** Listings that contradicted themselves (totals, duplicate paths). */
  inconsistent: string[];
}

const relative = (filePath: string) => filePath.replace(/^APP\/uDRIVE\//, '');

/**
 * The way the uDRIVE page and its owner use a drive at once: `loops` clients uploading files one after the
 * other, each deleting one of its own files every third turn, while `readers` pages list the drive again and
 * again; until `until()` says stop. Requests that fail to get an answer (a killed process) are uncertain.
 */
export async function raceOnDrive(
  api: DriveApi,
  options: { loops: number; readers: number; until: () => boolean; prefix?: string },
  result: RaceResult = {
    acknowledged: new Map(),
    uncertain: new Set(),
    uploads: 0,
    deletes: 0,
    listings: 0,
    statuses: new Map(),
    inconsistent: [],
  },
): Promise<RaceResult> {
  const codes = (result.serverCodes ??= new Map());
  const count = (status: number, body?: unknown) => {
    result.statuses.set(status, (result.statuses.get(status) ?? 0) + 1);
    if (status < 500) return;
    const reason = `${status} ${(body as { code?: string } | null)?.code ?? ''}`;
    codes.set(reason, (codes.get(reason) ?? 0) + 1);
  };
  const loop = async (index: number) => {
    const mine: string[] = [];
    for (let turn = 0; !options.until(); turn++) {
      if (turn % 3 === 2 && mine.length > 0) {
        const path = mine.splice(Math.floor(Math.random() * mine.length), 1)[0]!;
        const answer = await api.remove(path).catch(() => null);
        result.deletes += 1;
        if (!answer) result.uncertain.add(path);
        else {
          count(answer.status, answer.body);
          if (answer.status === 200) result.acknowledged.delete(path);
          else mine.push(path);
        }
        continue;
      }
      const bytes = randomBytes(200 + Math.floor(Math.random() * 3000));
      const name = `${options.prefix ?? ''}loop${index}-${turn}.txt`;
      const answer = await api.upload(name, bytes).catch(() => null);
      result.uploads += 1;
      if (!answer) {
        result.uncertain.add(`Documents/${name}`);
        continue;
      }
      count(answer.status, answer.body);
      if (answer.status !== 200) continue;
      const body = answer.body as { file_path: string; fileHash: string };
      const path = relative(body.file_path);
      result.acknowledged.set(path, createHash('sha256').update(bytes).digest('hex'));
      if (body.fileHash !== result.acknowledged.get(path)) result.inconsistent.push(`hash of ${path}`);
      mine.push(path);
    }
  };
  const reader = async () => {
    while (!options.until()) {
      // A page's next request comes after its answer is drawn: a turn of the event loop at least.
      await new Promise((resolve) => setImmediate(resolve));
      const answer = await api.list().catch(() => null);
      result.listings += 1;
      if (!answer) continue;
      count(answer.status, answer.body);
      if (answer.status !== 200) continue;
      const listing = answer.body as Listing;
      const paths = new Set(listing.files.map((f) => f.path));
      if (paths.size !== listing.files.length) result.inconsistent.push('a path listed twice');
      if (listing.total_files !== listing.files.length)
        result.inconsistent.push('totals disagree with files');
    }
  };
  await Promise.all([
    ...Array.from({ length: options.loops }, (_, i) => loop(i)),
    ...Array.from({ length: options.readers }, () => reader()),
  ]);
  return result;
}

/** The differences between a final listing and what was acknowledged (uncertain paths may go either way). */
export function disagreements(listing: Listing, result: RaceResult): string[] {
  const listed = new Map(listing.files.map((f) => [f.path, f.sha256]));
  const problems: string[] = [];
  for (const [path, sha256] of result.acknowledged) {
    if (result.uncertain.has(path)) continue;
    if (!listed.has(path)) problems.push(`acknowledged but not listed: ${path}`);
    else if (listed.get(path) !== sha256) problems.push(`listed with other bytes: ${path}`);
  }
  for (const path of listed.keys())
    if (!result.acknowledged.has(path) && !result.uncertain.has(path))
      problems.push(`listed, never acknowledged: ${path}`);
  return problems;
}

/** Requests answered 5xx during the run. */
export function serverErrors(result: RaceResult): number {
  let errors = 0;
  for (const [status, n] of result.statuses) if (status >= 500) errors += n;
  return errors;
}
