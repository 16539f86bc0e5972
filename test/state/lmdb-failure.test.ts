import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { commitFailure, settled } from '../../src/state/lmdb-failure.js';

/** A failed commit as lmdb-js reports it: a generic error, the real one in `commitError`, settled later. */
function failedCommit(inner: unknown): Error {
  const commitError = new Promise((_, reject) => setImmediate(reject, inner));
  return Object.assign(new Error('Commit failed (see commitError for details)'), { commitError });
}

const errno = (code: number, message = 'write failed') => Object.assign(new Error(message), { code });

describe('a failed LMDB commit, told by the file system’s code', () => {
  it.each([
    [28, 'ENOSPC'],
    [122, 'EDQUOT'],
    [-30792, 'ENOSPC'],
    [5, 'EIO'],
    [30, 'EROFS'],
    [99, 'EIO'],
  ])('errno %i → %s, the real error kept as its cause', async (number, code) => {
    const inner = errno(number, 'Attempting to write page');
    const error = (await commitFailure(failedCommit(inner), null, 'station database')) as Error;
    expect(error).toMatchObject({ code, cause: inner });
    expect(error.message).toBe('station database commit failed: Attempting to write page');
  });

  it('a commit whose real error never comes is a storage failure all the same', async () => {
    const silent = Object.assign(new Error('Commit failed'), { commitError: new Promise(() => {}) });
    expect(await commitFailure(silent, null, 'drive index')).toMatchObject({ code: 'EIO', cause: silent });
  });

  it('leaves any other error as it is: a transaction callback that threw', async () => {
    const thrown = new RangeError('bad key');
    expect(await commitFailure(thrown, null, 'station database')).toBe(thrown);
    await expect(settled(Promise.reject(thrown), '/', 'x')).rejects.toBe(thrown);
    expect(await settled(Promise.resolve(7), '/', 'x')).toBe(7);
  });

  it('answers a full disk 507 and a failing one 503, as `{detail, code}`', async () => {
    const app = Fastify();
    registerErrorHandling(app);
    app.get<{ Params: { errno: string } }>('/write/:errno', async (request) => {
      throw await commitFailure(failedCommit(errno(Number(request.params.errno))), null, 'station database');
    });
    const answer = async (number: number) => {
      const res = await app.inject({ url: `/write/${number}` });
      return { status: res.statusCode, ...res.json<{ code: string }>() };
    };
    expect(await answer(28)).toMatchObject({ status: 507, code: 'INSUFFICIENT_STORAGE' });
    expect(await answer(5)).toEqual({
      status: 503,
      code: 'STORAGE_ERROR',
      detail: expect.stringContaining('storage failed'),
    });
    expect(await answer(30)).toMatchObject({ status: 503, code: 'STORAGE_ERROR' });
    await app.close();
  });
});
