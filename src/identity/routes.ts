import { Type, type Static } from 'typebox';
import { parseCoordinate } from '../geo/coordinates.js';
import { InvalidInput } from '../errors.js';
import { documentResponse, ErrorBody } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { sharedViews } from '../http/views.js';
import { multipartFields, sendRegisteredPage, withErrorField } from './registration-routes.js';
import { Registered } from './registration-schema.js';

const Registration = Type.Object({
  email: Type.String({ maxLength: 254 }),
  lang: Type.Optional(Type.String({ maxLength: 16 })),
  lat: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Number()])),
  lon: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Number()])),
  salt: Type.Optional(Type.String({ maxLength: 128 })),
  pepper: Type.Optional(Type.String({ maxLength: 128 })),
  format: Type.Optional(Type.String({ maxLength: 16, description: '"html": answer with a page' })),
  pre_stretched: Type.Optional(Type.String({ maxLength: 8 })),
});

const RegistrationQuery = Type.Object({
  format: Type.Optional(Type.String({ maxLength: 16, description: '"html": answer with a page' })),
  lang: Type.Optional(Type.String({ maxLength: 16 })),
});

/** `{detail, code}` plus `error` (= code), which UPassport's MULTIPASS clients read. */
const RegistrationError = Type.Object(
  {
    ...ErrorBody.properties,
    // Added as the answer is sent (withErrorField), so optional for the serializer.
    error: Type.Optional(Type.String({ description: 'The same value as code' })),
  },
  { description: 'Error: sentence, stable code, and the code again as error' },
);

const CREDENTIAL = /^[\x21-\x7e]{1,128}$/;

function readCredential(value: string | undefined, name: string): string | null {
  if (value === undefined || value === '') return null;
  if (!CREDENTIAL.test(value))
    throw new InvalidInput('INVALID_CREDENTIAL', {
      en: `${name} must be 1–128 printable ASCII characters.`,
      fr: `${name} doit faire de 1 à 128 caractères ASCII imprimables.`,
    });
  return value;
}

function readGps(body: Static<typeof Registration>) {
  const hasLat = body.lat !== undefined && body.lat !== '';
  const hasLon = body.lon !== undefined && body.lon !== '';
  if (!hasLat && !hasLon) return null;
  const lat = parseCoordinate(body.lat, 90);
  const lon = parseCoordinate(body.lon, 180);
  if (lat === null || lon === null) {
    throw new InvalidInput('INVALID_COORDINATES', {
      en: 'lat must be within ±90 and lon within ±180, as decimal numbers.',
      fr: 'lat doit être compris entre −90 et 90 et lon entre −180 et 180, en nombres décimaux.',
    });
  }
  return { lat, lon };
}

export async function identityRoutes(app: StationApp): Promise<void> {
  const views = await sharedViews();
  const errors = Object.fromEntries([400, 409, 413, 503, 507].map((status) => [status, RegistrationError]));

  app.post(
    '/g1nostr',
    {
      schema: {
        summary: 'Create a NOSTR + Ğ1 identity for an e-mail address (JSON, or a page with format=html)',
        tags: ['identity'],
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
        querystring: RegistrationQuery,
        body: Registration,
        response: {
          200: {
            description: 'The new identity (its keys are shown this once); a page with format=html',
            content: {
              'application/json': { schema: Registered },
              'text/html': documentResponse('text/html', 'The keys as a page').content['text/html'],
            },
          },
          ...errors,
        },
      },
      preValidation: multipartFields,
      onSend: withErrorField,
    },
    async (request, reply) => {
      const body = request.body;
      const gps = readGps(body);
      const salt = readCredential(body.salt, 'salt');
      const pepper = readCredential(body.pepper, 'pepper');
      if ((salt === null) !== (pepper === null)) {
        throw new InvalidInput('INVALID_CREDENTIAL', {
          en: 'Give both salt and pepper, or neither.',
          fr: 'Donnez à la fois le sel (salt) et le poivre (pepper), ou aucun des deux.',
        });
      }
      // UPassport stretches raw credentials with PBKDF2 first; keys made without it would not be the ones the
      // client expects, so such a request is refused rather than answered with other keys.
      if (salt !== null && body.pre_stretched?.toLowerCase() === 'false') {
        throw new InvalidInput('PRE_STRETCH_UNSUPPORTED', {
          en: 'This station does not stretch credentials: send salt and pepper already stretched (pre_stretched=true).',
          fr: 'Cette station n’étire pas les identifiants : envoyez le sel et le poivre déjà étirés (pre_stretched=true).',
        });
      }
      const lang = body.lang && /^[a-z]{2}(-[A-Za-z]{2})?$/.test(body.lang) ? body.lang : null;
      const created = await app.users.create({ email: body.email, salt, pepper, gps, lang });
      const identity = {
        email: created.record.email,
        npub: created.keys.nostr.npub,
        hex: created.keys.nostr.hex,
        g1pub: created.keys.g1.address,
        g1pub_v1: created.keys.g1.pubV1,
        nsec: created.keys.nostr.nsec,
        salt: created.salt,
        pepper: created.pepper,
        lat: gps?.lat ?? null,
        lon: gps?.lon ?? null,
      };
      // Secret keys: no cache may keep this answer.
      reply.header('cache-control', 'no-store');
      const format = (body.format ?? request.query.format)?.toLowerCase();
      if (format === 'html') return sendRegisteredPage(request, reply, views, identity, lang?.slice(0, 2));
      return identity;
    },
  );
}
