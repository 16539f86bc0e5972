import type { TestApp } from '../../helpers/app.js';
import type { Owner } from '../../helpers/multipart.js';
import { postJson, upload } from '../http.js';
import type { Answer, DriveApi } from './race-workload.js';

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** A user's drive through the app in this process (`inject`): what a page and its owner send. */
export function injectApi(t: TestApp, owner: Owner): DriveApi {
  const answer = (r: { statusCode: number; body: string }): Answer => ({
    status: r.statusCode,
    body: parsed(r.body),
  });
  return {
    upload: async (name, bytes) => answer(await upload(t, owner, name, bytes)),
    remove: async (path) =>
      answer(await postJson(t, owner, '/api/delete', { file_path: path, npub: owner.npub })),
    list: async () => answer(await t.app.inject({ method: 'GET', url: `/api/drive?npub=${owner.npub}` })),
  };
}
