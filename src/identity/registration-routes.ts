import type { Registered } from './registration-schema.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { InvalidInput } from '../errors.js';
import { pageLabels } from '../../pages/labels/index.js';
import { pickLanguage, sendHtml, type Language, type Views } from '../http/views.js';

/** Fields a MULTIPASS form may carry (UPassport's G1NostrForm has 19; most are ignored here). */
const MAX_FIELDS = 32;

/**
 * The fields of a multipart registration (`new FormData(form)`, as UPassport's MULTIPASS pages post it), put
 * where the route's schema validates them. Registration takes no file: one is refused before it is read.
 */
export async function multipartFields(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, string> = {};
  for await (const part of request.parts({ limits: { fields: MAX_FIELDS } })) {
    if (part.type === 'file') {
      part.file.resume();
      throw new InvalidInput('UNEXPECTED_FILE', {
        en: 'Registration takes form fields only, no file.',
        fr: 'L’inscription ne prend que des champs de formulaire, aucun fichier.',
      });
    }
    fields[part.fieldname] = String(part.value);
  }
  request.body = fields;
}

/**
 * UPassport's clients read a failed registration's `err.error`: every error body of the route also carries
 * `error`, the same value as `code`.
 */
export async function withErrorField(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    if (typeof body.code === 'string' && body.error === undefined)
      return JSON.stringify({ ...body, error: body.code });
  } catch {
    // Not JSON: left as it is.
  }
  return payload;
}

const EXTRA = {
  fr: { cellLabel: 'Votre case UMAP :', webcamPage: 'enregistrer une vidéo' },
  en: { cellLabel: 'Your UMAP cell:', webcamPage: 'record a video' },
} satisfies Record<Language, object>;

/** `format=html`: the new keys as a page (French or English: the form's `lang`, else the browser's). */
export async function sendRegisteredPage(
  request: FastifyRequest,
  reply: FastifyReply,
  views: Views,
  id: Registered,
  formLang: string | undefined,
): Promise<FastifyReply> {
  const lang: Language = formLang === 'fr' || formLang === 'en' ? formLang : pickLanguage(request);
  const cell = id.lat !== null && id.lon !== null ? `${id.lat.toFixed(2)}, ${id.lon.toFixed(2)}` : null;
  const html = views.render('registered', {
    lang,
    path: '/g1nostr',
    langSwitch: null,
    k: pageLabels(lang).keys,
    ...EXTRA[lang],
    id,
    cell,
    qr: await QRCode.toDataURL(id.npub, { errorCorrectionLevel: 'M', margin: 2, width: 200 }),
  });
  return sendHtml(reply, html);
}
