import { finalizeEvent, getPublicKey, type EventTemplate, type NostrEvent } from 'nostr-tools';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's `chromium` package; override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Headless Chromium for page tests, with `extraArgs` (e.g. a fake camera); close it in afterAll. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    headless: true,
  });
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught exceptions and failed requests seen so far; a clean page keeps it empty. */
  problems: string[];
  close: () => Promise<void>;
}

/**
 * A fresh context (no shared storage between tests) with a page that records every console error, page
 * error and failed request. The browser's own favicon probe is not the page's doing and is ignored.
 * `init` runs before any page script (e.g. a NIP-07 `window.nostr` shim).
 */
export async function openPage(
  browser: Browser,
  options: { init?: (context: BrowserContext) => Promise<void>; locale?: string } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({ locale: options.locale ?? 'en-GB' });
  await options.init?.(context);
  const page = await context.newPage();
  const problems: string[] = [];
  const isFavicon = (url: string) => new URL(url, 'http://x').pathname === '/favicon.ico';
  page.on('console', (message) => {
    if (message.type() === 'error' && !isFavicon(message.location().url))
      problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (!isFavicon(request.url()))
      problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !isFavicon(response.url()))
      problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return { context, page, problems, close: () => context.close() };
}

/**
 * A NIP-07 extension (`window.nostr`) in every page of `context`, signing in the test process with
 * `secretKey`; `onSign` sees each event the page had signed. Pass it as `openPage`'s `init`.
 */
export async function installNostrExtension(
  context: BrowserContext,
  secretKey: Uint8Array,
  onSign: (event: NostrEvent) => void = () => undefined,
): Promise<void> {
  await context.exposeFunction('__testGetPublicKey', () => getPublicKey(secretKey));
  await context.exposeFunction('__testSignEvent', (template: EventTemplate) => {
    const event = finalizeEvent(template, secretKey);
    onSign(event);
    return event;
  });
  await context.addInitScript(() => {
    const w = globalThis as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    Object.defineProperty(globalThis, 'nostr', {
      value: {
        getPublicKey: () => w.__testGetPublicKey!(),
        signEvent: (e: unknown) => w.__testSignEvent!(e),
      },
    });
  });
}
