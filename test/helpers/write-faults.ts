import { constants } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import type * as Lmdb from 'lmdb';
import { vi } from 'vitest';

/**
 * Write faults at the station's own seams: its calls into `node:fs/promises` and into lmdb-js. A test file
 * routes both through here with `vi.mock` (this module imports neither, so the mocks do not loop):
 *
 *   vi.mock('node:fs/promises', async (real) => (await import('../helpers/write-faults.js')).faultyFs(await real()));
 *   vi.mock('lmdb', async (real) => (await import('../helpers/write-faults.js')).recordingLmdb(await real()));
 *
 * The real functions run unless a fault covers the path written; reads are never touched.
 */
export type FaultCode = 'ENOSPC' | 'EIO';

const ERRNO: Record<FaultCode, number> = { ENOSPC: 28, EIO: 5 };
const TEXT: Record<FaultCode, string> = { ENOSPC: 'no space left on device', EIO: 'i/o error' };

const faults = { files: null as { code: FaultCode; under: string } | null };

/** Every write under `under` (file contents, new names, folders) fails with `code` until `stopFailingFiles`. */
export function failFiles(code: FaultCode, under: string): void {
  faults.files = { code, under };
}

export function stopFailingFiles(): void {
  faults.files = null;
}

/** An error as Node's file system functions make them. */
function fsError(code: FaultCode, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${TEXT[code]}, ${syscall} '${path}'`), {
    code,
    errno: -ERRNO[code],
    syscall,
    path,
  });
}

const faultAt = (...paths: unknown[]) => {
  const fault = faults.files;
  return fault && paths.some((p) => String(p).startsWith(fault.under)) ? fault.code : null;
};

type Fn = (...args: unknown[]) => Promise<unknown>;

const WRITE_FLAGS = constants.O_WRONLY | constants.O_RDWR | constants.O_CREAT | constants.O_APPEND;
const writes = (flags: unknown) =>
  typeof flags === 'number' ? (flags & WRITE_FLAGS) !== 0 : typeof flags === 'string' && /[wa+]/.test(flags);

/** A handle opened for writing whose writes fail while a fault covers its path (the file itself is made). */
function faultyHandle(handle: FsPromises.FileHandle, path: string): FsPromises.FileHandle {
  for (const name of ['write', 'writev', 'writeFile', 'appendFile', 'sync'] as const) {
    const real = (handle[name] as Fn).bind(handle);
    Object.defineProperty(handle, name, {
      value: (...args: unknown[]) => {
        const code = faultAt(path);
        return code ? Promise.reject(fsError(code, 'write', path)) : real(...args);
      },
    });
  }
  return handle;
}

/** `node:fs/promises` with its writes failing under a fault (`failFiles`). */
export function faultyFs(real: typeof FsPromises): typeof FsPromises {
  const checked =
    (name: string, fn: Fn, paths: number) =>
    (...args: unknown[]) => {
      const code = faultAt(...args.slice(0, paths));
      return code ? Promise.reject(fsError(code, name, String(args[paths - 1]))) : fn(...args);
    };
  const wrapped = {
    writeFile: checked('open', real.writeFile as Fn, 1),
    appendFile: checked('open', real.appendFile as Fn, 1),
    mkdir: checked('mkdir', real.mkdir as Fn, 1),
    rename: checked('rename', real.rename as Fn, 2),
    link: checked('link', real.link as Fn, 2),
    copyFile: checked('copyfile', real.copyFile as Fn, 2),
    open: async (path: unknown, flags?: unknown, mode?: unknown) => {
      const handle = await real.open(path as string, flags as string, mode as number);
      return writes(flags) ? faultyHandle(handle, String(path)) : handle;
    },
  };
  return { ...real, ...wrapped, default: { ...real, ...wrapped } } as typeof FsPromises;
}

/** The LMDB environments opened since this file loaded, by path. */
const environments: { path: string; root: Lmdb.RootDatabase }[] = [];

/** lmdb-js whose `open` remembers each environment, so a test can fail the writes of one (`failLmdb`). */
export function recordingLmdb(real: typeof Lmdb): typeof Lmdb {
  const open = (...args: unknown[]) => {
    const root = (real.open as (...a: unknown[]) => Lmdb.RootDatabase)(...args);
    const path = typeof args[0] === 'string' ? args[0] : (args[0] as { path: string }).path;
    environments.push({ path, root });
    return root;
  };
  return { ...real, open, default: { ...real, open } } as typeof Lmdb;
}

/** A failed commit as lmdb-js reports it: a generic error, the real one (an errno) in `commitError`, later. */
function failedCommit(code: FaultCode): Promise<never> {
  const inner = Object.assign(new Error(`${TEXT[code]}: Attempting to write page`), { code: ERRNO[code] });
  const commitError = new Promise<never>((_, reject) => setImmediate(reject, inner));
  const outer = Object.assign(new Error('Commit failed (see commitError for details)'), { commitError });
  return Promise.reject(outer);
}

const LMDB_WRITES = ['transaction', 'childTransaction', 'ifVersion', 'put', 'remove', 'clearAsync'] as const;

/**
 * Every write of the LMDB environments under `under` fails as a failed commit does (nothing of it kept);
 * returns what gives them back. lmdb-js makes one store class per environment: its prototype is the seam.
 */
export function failLmdb(code: FaultCode, under: string): () => void {
  const prototypes = new Set(
    environments.filter((e) => e.path.startsWith(under)).map((e) => Object.getPrototypeOf(e.root) as object),
  );
  if (prototypes.size === 0) throw new Error(`no LMDB environment opened under ${under}`);
  const spies = [...prototypes].flatMap((proto) =>
    LMDB_WRITES.map((name) =>
      vi.spyOn(proto as Record<string, Fn>, name).mockImplementation(() => failedCommit(code)),
    ),
  );
  return () => spies.forEach((spy) => spy.mockRestore());
}

/** Collects what would end a station process: unhandled rejections and uncaught exceptions. */
export function watchProcess(): { seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const record = (error: unknown) => seen.push(error);
  process.on('unhandledRejection', record);
  process.on('uncaughtException', record);
  return {
    seen,
    stop: () => {
      process.off('unhandledRejection', record);
      process.off('uncaughtException', record);
    },
  };
}
