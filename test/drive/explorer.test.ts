import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser.js';
import { collect, pseudoRandom } from './helpers.js';
import {
  imageLoaded,
  PNG_1x1,
  startExplorerStation,
  type ExplorerStation,
  type Member,
} from './explorer-station.js';

/** Were it parsed as markup, its entities would show decoded (`<img …>`): shown as text, it stays as typed. */
const HOSTILE = "&lt;img src=x onerror=alert(1)&gt; & 'é'.txt";

/**
 * The explorer every drive root carries (`_index.html`), opened from the station's embedded gateway in a
 * real browser, under the policy the gateway gives it: it lists, previews, downloads and links without any
 * key, and uploads and deletes once the visitor proves the key.
 */
describe('the published drive explorer in headless Chromium', () => {
  let s: ExplorerStation;
  let alice: Member;
  let root: string;

  beforeAll(async () => {
    s = await startExplorerStation();
    alice = await s.register('alice@example.org');
    await s.upload(alice, 'photo.png', PNG_1x1);
    await s.upload(alice, HOSTILE, 'not markup');
    root = (await s.upload(alice, 'notes.txt', 'hello drive\n')).new_cid;
  });
  afterAll(() => s?.close());

  const explorerOf = (cid: string) => `${s.gateway.url}/ipfs/${cid}/_index.html`;
  const ready = '#explorer[data-ready="true"]';

  it('shows folders and files with sizes, previews an image, downloads a file and copies its link', async () => {
    const { context, page, problems, close } = await openPage(s.browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.gateway.url });
    try {
      // The root as uDRIVE's redirectToNewCid opens it: no slash, then the gateway's redirect.
      await page.goto(`${s.gateway.url}/ipfs/${root}`);
      await page.waitForSelector(ready, { state: 'attached' });
      expect(page.url()).toBe(explorerOf(root));
      expect(await page.textContent('#drive-root')).toBe(root);

      const folders = await page.$$eval('details.drive-folder', (nodes) =>
        nodes.map((d) => [d.getAttribute('data-folder'), d.hasAttribute('open')]),
      );
      expect(folders).toEqual([
        ['Documents', true],
        ['Images', true],
        ['Music', false],
        ['Videos', false],
      ]);
      expect(await page.textContent('details[data-folder="Documents"] .folder-count')).toContain('2 files');
      const rows = await page.$$eval('li.drive-file', (nodes) =>
        nodes.map((li) => [
          li.getAttribute('data-path'),
          li.querySelector('.file-name')?.textContent,
          li.querySelector('.file-meta')?.textContent?.split(' · ')[0],
        ]),
      );
      expect(rows).toEqual([
        [`Documents/${HOSTILE}`, HOSTILE, '10 B'],
        ['Documents/notes.txt', 'notes.txt', '12 B'],
        ['Images/photo.png', 'photo.png', `${PNG_1x1.length} B`],
      ]);
      // A name is text: the one image in the view is the preview.
      expect(await page.$$eval('#drive-view img', (imgs) => imgs.length)).toBe(1);
      expect(await page.title()).toBe('uDRIVE');

      await imageLoaded(page, 'Images/photo.png');

      const notes = 'li[data-path="Documents/notes.txt"]';
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`${notes} [data-action="download"]`),
      ]);
      expect(download.suggestedFilename()).toBe('notes.txt');
      expect(await readFile((await download.path())!, 'utf8')).toBe('hello drive\n');

      await page.click(`${notes} [data-action="copy-link"]`);
      await page.waitForSelector('#upload-result [data-outcome="copied"]');
      const link = String(await page.evaluate('navigator.clipboard.readText()'));
      const entry = (await s.manifest(alice)).files.find((f) => f.name === 'notes.txt')!;
      expect(link).toBe(`${s.gateway.url}/ipfs/${entry.ipfs_link}`);
      expect(await (await fetch(link)).text()).toBe('hello drive\n');

      // Without a key: nothing to upload with, nothing to delete.
      expect(await page.isHidden('#upload-section')).toBe(true);
      expect(await page.$$('[data-action="remove"]')).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('signs in with a typed nsec, uploads with progress, follows the new root and deletes', async () => {
    const progress: Array<[number, number]> = [];
    const { page, problems, close } = await openPage(s.browser, {
      init: async (context) => {
        await context.exposeFunction('__uploadProgress', (loaded: number, total: number) =>
          progress.push([loaded, total]),
        );
        // Sees the upload events the explorer's XMLHttpRequest fires (init scripts are not under the page CSP).
        await context.addInitScript({
          content: `{
            const send = XMLHttpRequest.prototype.send;
            XMLHttpRequest.prototype.send = function (body) {
              this.upload.addEventListener('progress', (e) => globalThis.__uploadProgress(e.loaded, e.total));
              return send.call(this, body);
            };
          }`,
        });
      },
    });
    const sent: string[] = [];
    page.on('request', (request) =>
      sent.push(`${request.url()} ${JSON.stringify(request.headers())} ${request.postData() ?? ''}`),
    );
    try {
      await page.goto(explorerOf(root));
      await page.waitForSelector(ready, { state: 'attached' });
      await page.fill('#nsec', alice.nsec);
      await page.click('#nsec-form button[type="submit"]');
      await page.waitForSelector('#forget-key', { state: 'visible' });
      expect(await page.textContent('#owner-status')).toContain('You own this uDRIVE');
      expect(await page.inputValue('#nsec')).toBe('');

      const big = await collect(pseudoRandom(3 * 1024 * 1024, 'explorer'));
      await page.setInputFiles('#drive-file', {
        name: 'big.bin',
        mimeType: 'application/octet-stream',
        buffer: big,
      });
      await page.click('#upload-button');
      await page.waitForSelector('li[data-path="Documents/big.bin"]');
      const afterUpload = (await s.manifest(alice)).root_cid!;
      expect(afterUpload).not.toBe(root);
      await page.waitForSelector(`#explorer[data-root="${afterUpload}"]`, { state: 'attached' });
      expect(page.url()).toBe(explorerOf(afterUpload));
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.at(-1)![0]).toBe(progress.at(-1)![1]);
      expect(progress.at(-1)![1]).toBeGreaterThan(big.length);
      expect(await page.getAttribute('#upload-progress', 'value')).toBe('100');
      const stored = await readFile(join(alice.dir, 'APP', 'uDRIVE', 'Documents', 'big.bin'));
      expect(stored.equals(big)).toBe(true);
      // The page stayed: the typed key is still there for the next change.
      expect(await page.isVisible('#forget-key')).toBe(true);

      const row = 'li[data-path="Documents/big.bin"]';
      await page.click(`${row} [data-action="remove"]`);
      expect(await page.textContent(`${row} [data-action="remove"]`)).toBe('Confirm deletion');
      await page.click(`${row} [data-action="remove"]`);
      await page.waitForSelector(row, { state: 'detached' });
      const afterDelete = (await s.manifest(alice)).root_cid!;
      await page.waitForSelector(`#explorer[data-root="${afterDelete}"]`, { state: 'attached' });
      // Same files as before the upload, same dates: the same root as before.
      expect(afterDelete).toBe(root);
      expect((await s.manifest(alice)).files.map((f) => f.name)).not.toContain('big.bin');

      expect(problems).toEqual([]);
      expect(sent.filter((line) => line.includes(alice.nsec))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('lets another key copy a file into its own drive, then shows that drive', async () => {
    const bob = await s.register('bob@example.org');
    const { page, problems, close } = await openPage(s.browser, { locale: 'fr-FR' });
    try {
      await page.goto(explorerOf(root));
      await page.waitForSelector(ready, { state: 'attached' });
      await page.fill('#nsec', bob.nsec);
      await page.click('#nsec-form button[type="submit"]');
      await page.waitForSelector('#forget-key', { state: 'visible' });
      expect(await page.textContent('#owner-status')).toContain('appartient à une autre clé');
      expect(await page.$$('[data-action="remove"]')).toEqual([]);
      await page.click('li[data-path="Images/photo.png"] [data-action="copy-to-mine"]');
      await page.waitForSelector('#upload-result [data-outcome="success"]');
      const bobRoot = (await s.manifest(bob)).root_cid!;
      await page.waitForSelector(`#explorer[data-root="${bobRoot}"]`, { state: 'attached' });
      expect(page.url()).toBe(explorerOf(bobRoot));
      expect(await page.textContent('#owner-status')).toContain('Vous êtes le propriétaire');
      await page.waitForSelector('li[data-path="Images/photo.png"] [data-action="remove"]');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
