import { userInfo } from 'node:os';
import { isAbsolute, relative } from 'node:path';

/**
 * Why the station cannot start, for its operator to fix: a setting or the machine, never a bug. `src/main.ts`
 * prints such an error as one line (no stack) and exits with 78, sysexits' EX_CONFIG, like a bad variable.
 */
export type StartupCode =
  | 'PORT_IN_USE'
  | 'PORT_FORBIDDEN'
  | 'ADDRESS_NOT_LOCAL'
  | 'HOST_UNRESOLVED'
  | 'DIR_UNUSABLE'
  | 'FILE_UNUSABLE';

export class StartupError extends Error {
  constructor(
    readonly code: StartupCode,
    /** The variable to change (PORT, RELAY_URL, IPFS_GATEWAY, HOST, DATA_ROOT, TMP_DIR), or a file. */
    readonly setting: string,
    problem: string,
    remedy: string,
  ) {
    super(`${setting}: ${problem}; ${remedy}`);
    this.name = 'StartupError';
  }
}

/** Something else listens on the port a variable names. */
export class PortInUse extends StartupError {
  constructor(variable: string, address: string, remedy: string) {
    super('PORT_IN_USE', variable, `${address} is already in use by another program`, remedy);
  }
}

/** A port below 1024 for a user without the privilege to bind it. */
export class PortForbidden extends StartupError {
  constructor(variable: string, address: string) {
    super(
      'PORT_FORBIDDEN',
      variable,
      `${address} needs privileges this user does not have`,
      `use a port above 1023 in ${variable} (a reverse proxy can serve 80/443)`,
    );
  }
}

/** An address to listen on that is not one of this machine's (EADDRNOTAVAIL). */
export class AddressNotLocal extends StartupError {
  constructor(variable: string, address: string) {
    super(
      'ADDRESS_NOT_LOCAL',
      variable,
      `${address} is not an address of this machine`,
      `use one of its addresses (ip -brief address), 127.0.0.1 for this machine alone or 0.0.0.0 for all`,
    );
  }
}

export class HostUnresolved extends StartupError {
  constructor(variable: string, host: string, reason: string) {
    super(
      'HOST_UNRESOLVED',
      variable,
      `"${host}" does not resolve (${reason})`,
      'check its spelling, or use an address: 127.0.0.1 for this machine alone, 0.0.0.0 for all',
    );
  }
}

/** A directory the station writes under that it cannot create or write. */
export class DirectoryUnusable extends StartupError {
  constructor(variable: string, path: string, code: string, user: string) {
    super(
      'DIR_UNUSABLE',
      variable,
      `${path} cannot be created or written by user ${user} (${code})`,
      `create it and give it to that user (chown -R ${user} ${path}), or point ${variable} elsewhere`,
    );
  }
}

/** A file the station needs that is missing or that it may not read or write. */
export class FileUnusable extends StartupError {
  constructor(setting: string, path: string, code: string, remedy: string) {
    super('FILE_UNUSABLE', setting, `${path} cannot be used (${code})`, remedy);
  }
}

/** The user the service runs as, for a remedy that names it (`chown`). */
export function serviceUser(): string {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? 'the service user');
  }
}

/**
 * Gives a file-system error the path it is about when the failed call did not say (a read on an open file),
 * for `fileFailureAsStartupError`; rethrows it.
 */
export function failedAt(path: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof Error && !('path' in error)) Object.assign(error, { path });
    throw error;
  };
}

/** File-system refusals that a setting or the machine's permissions cause, not the station's code. */
const FILE_CODES = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EEXIST',
  'ENOSPC',
  'EDQUOT',
]);

const within = (dir: string, path: string) => {
  const rest = relative(dir, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
};

export interface StartupPaths {
  dataRoot: string;
  tmpDir: string;
  /** Where the build puts what the service reads (`dist/`): a file missing there wants `npm run build`. */
  projectRoot: string;
}

/**
 * A file-system error a start-up step let through (opening a store, reading a built page) as a StartupError
 * naming the variable whose tree holds the path; null for anything else, which stays an unexpected error.
 */
export function fileFailureAsStartupError(error: unknown, paths: StartupPaths): StartupError | null {
  const { code, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof path !== 'string' || !FILE_CODES.has(code)) return null;
  const user = serviceUser();
  for (const [variable, dir] of [
    ['TMP_DIR', paths.tmpDir],
    ['DATA_ROOT', paths.dataRoot],
  ] as const) {
    if (within(dir, path))
      return new FileUnusable(
        variable,
        path,
        code,
        `let user ${user} read and write it (chown -R ${user} ${dir}), move away what is in its way, or point ${variable} elsewhere`,
      );
  }
  if (within(paths.projectRoot, path))
    return new FileUnusable(path, path, code, 'run `npm run build` in the station folder, then start again');
  return null;
}

/**
 * A failed `listen` as a StartupError naming the variable of its port (taken, privileged) or of its host (not
 * an address of this machine, a name that does not resolve). Null for anything else.
 */
export function listenFailureAsStartupError(
  error: unknown,
  names: { port: string; host: string },
  address: { host: string; port: number },
  whenInUse: string,
): StartupError | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
  if (code === 'EADDRINUSE') return new PortInUse(names.port, where, whenInUse);
  if (code === 'EACCES') return new PortForbidden(names.port, where);
  if (code === 'EADDRNOTAVAIL') return new AddressNotLocal(names.host, address.host);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL')
    return new HostUnresolved(names.host, address.host, code);
  return null;
}
