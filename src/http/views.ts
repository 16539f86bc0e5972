import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROJECT_ROOT } from '../config/config.js';
import type { Language } from '../../pages/labels/index.js';
import { pageLanguage } from './request-language.js';
import type { StationApp } from './station-app.js';

/** Server-rendered page templates (`*.eta`) and their stylesheet live here. */
export const VIEWS_DIR = join(PROJECT_ROOT, 'pages', 'views');

export type { Language };

/** Where the shared stylesheet is served; the layout links to it. */
export const STYLESHEET_PATH = '/views/station.css';

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/**
 * Eta templates with escaping on by default: `<%= value %>` can never inject markup, only `<%~ %>` can,
 * and that is reserved for the layout's `it.body`. Every template is read once at start-up, so rendering
 * never touches the disk. A page template starts with `<% layout('/layout', { title: … }) %>`.
 */
export class Views {
  private readonly eta: Eta;

  private constructor(
    private readonly files: Map<string, string>,
    dir: string,
  ) {
    this.eta = new Eta({ views: dir, autoEscape: true, cache: true, useWith: false });
    this.eta.readFile = (path: string) => {
      const text = this.files.get(path);
      if (text === undefined) throw new Error(`No template ${relative(dir, path)}`);
      return text;
    };
  }

  static async load(dir: string = VIEWS_DIR): Promise<Views> {
    const files = new Map<string, string>();
    for (const path of await listFiles(dir)) files.set(path, await readFile(path, 'utf8'));
    return new Views(files, dir);
  }

  /** Renders `name` (path under the views folder, without `.eta`). */
  render(name: string, data: object): string {
    return this.eta.render(name, data);
  }

  /** A static file of the views folder (the stylesheet), or undefined. */
  file(name: string): string | undefined {
    return this.files.get(join(this.eta.config.views ?? '', ...name.split('/')));
  }
}

let shared: Promise<Views> | null = null;

/** The views of `pages/views/`, loaded once per process. */
export function sharedViews(): Promise<Views> {
  shared ??= Views.load().catch((error: unknown) => {
    shared = null;
    throw error;
  });
  return shared;
}

/** `?lang=fr|en` wins, then the browser's preference; stations speak French first (request-language.ts). */
export function pickLanguage(request: FastifyRequest): Language {
  return pageLanguage(request);
}

/** What the layout needs from the request: language, current path (highlighted in the menu) and the
 * same URL in the other language. Spread it into the data of `Views.render`. */
export function pageContext(request: FastifyRequest): {
  lang: Language;
  path: string;
  langSwitch: { lang: Language; href: string };
} {
  const lang = pickLanguage(request);
  const [path = '/', search = ''] = request.url.split('?', 2);
  const params = new URLSearchParams(search);
  const other: Language = lang === 'fr' ? 'en' : 'fr';
  params.set('lang', other);
  return { lang, path, langSwitch: { lang: other, href: `${path}?${params.toString()}` } };
}

/** True when a read-out route should answer with its page rather than JSON (`?html`, any value). */
export function wantsHtml(query: { html?: unknown }): boolean {
  return query.html !== undefined;
}

export function sendHtml(reply: FastifyReply, html: string): FastifyReply {
  return reply.type('text/html; charset=utf-8').send(html);
}

/** Serves the shared stylesheet (a file, not inline CSS, so a strict Content-Security-Policy can allow it). */
export async function viewAssetRoutes(app: StationApp): Promise<void> {
  const views = await sharedViews();
  const css = views.file('station.css') ?? '';
  const icon = views.file('favicon.svg') ?? '';
  for (const path of ['/favicon.ico', '/views/favicon.svg']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(icon),
    );
  }
  app.get(
    STYLESHEET_PATH,
    { schema: { summary: 'Stylesheet of the server-rendered pages', tags: ['pages'], hide: true } },
    async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(css),
  );
}
