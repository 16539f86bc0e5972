import { stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { AppDeps } from '../../src/app.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { launchBrowser } from '../helpers/browser.js';

export interface PageServer {
  t: TestApp;
  base: string;
  browser: Browser;
  close: () => Promise<void>;
}

/**
 * The service on a loopback port (pages, bundles, API) and one headless Chromium for the test file
 * (`launch` gives another one, e.g. with a fake camera).
 */
export async function startPageServer(
  overrides: Partial<AppDeps> = {},
  launch: () => Promise<Browser> = () => launchBrowser(),
): Promise<PageServer> {
  const t = await buildTestApp({ overrides });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const browser = await launch();
  return {
    t,
    base,
    browser,
    close: async () => {
      await browser.close();
      await t.close();
    },
  };
}

/** Opens a page and waits until its module says it is wired (`data-ready` on its app element). */
export async function gotoPage(page: Page, url: string, app: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector(`#${app}[data-ready="true"]`, { state: 'attached' });
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

/**
 * A new identity's directory as docs/api-contract.md §3 lays it out: public files, secrets 600, the drive
 * folders.
 */
export async function expectUserDirectory(dir: string): Promise<void> {
  for (const name of ['NPUB', 'HEX', 'G1PUBNOSTR']) expect((await stat(join(dir, name))).isFile()).toBe(true);
  expect(await mode(join(dir, '.secret.nostr'))).toBe(0o600);
  expect(await mode(join(dir, '.secret.dunikey'))).toBe(0o600);
  for (const category of ['Images', 'Music', 'Videos', 'Documents']) {
    expect((await stat(join(dir, 'APP', 'uDRIVE', category))).isDirectory()).toBe(true);
  }
}

/** Problems a page recorded, minus the ones a test provoked on purpose. */
export function unexpected(problems: string[], expected: RegExp[]): string[] {
  return problems.filter((problem) => !expected.some((pattern) => pattern.test(problem)));
}
