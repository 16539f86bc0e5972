import { Type, type Static } from 'typebox';

export const CookieUploadBody = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String({ description: 'Human-readable, names the detected domain' }),
    file_path: Type.String({ description: '`<email>/.<domain>.cookie`, relative to DATA_ROOT/nostr' }),
    file_type: Type.Literal('netscape_cookies'),
    target_directory: Type.String({ description: 'Absolute user directory where the file was stored' }),
    new_cid: Type.Null({ description: 'Cookies are never published' }),
    timestamp: Type.String({ description: 'ISO 8601 local date-time without zone' }),
    auth_verified: Type.Literal(true),
    description: Type.String({ description: '`Domain: <domain>`' }),
  },
  { description: 'Cookie file stored (docs/api-contract.md §8)' },
);

/** The exact answer for a cookie file; the cookie page reads it too (pages/src/cookie.ts). */
export type CookieUploadResponse = Static<typeof CookieUploadBody>;

/** What the drive answers when a file sent here is not a cookie file: UPassport's media fields included. */
export { FileUploadBody as DriveUploadBody } from '../drive/schemas.js';

export const CookieEntryBody = Type.Object({
  domain: Type.Union([Type.String(), Type.Null()], {
    description: 'Registrable domain; null for .cookie.txt',
  }),
  file: Type.String({ description: 'File name in the user directory' }),
  uploaded_at: Type.String({ description: 'Local ISO date-time of the upload' }),
  size: Type.Integer({ description: 'Bytes' }),
  expires_at: Type.Union([Type.String(), Type.Null()], {
    description: 'Earliest cookie expiry in the file (re-upload before); null: session cookies only',
  }),
});

/** One of the owner's cookie files, as listed by the vault and shown by the cookie page. */
export type CookieEntry = Static<typeof CookieEntryBody>;

export const CookieListBody = Type.Object({
  cookies: Type.Array(CookieEntryBody),
  count: Type.Integer(),
});

export const CookieListQuery = Type.Object({
  npub: Type.Optional(Type.String({ maxLength: 128, description: 'Must be the authenticated key if given' })),
  lang: Type.Optional(Type.String({ maxLength: 8 })),
});

export const DomainParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 260, description: 'e.g. youtube.com, or .cookie.txt' }),
});

export const CookieDeletedBody = Type.Object({
  success: Type.Literal(true),
  domain: Type.Union([Type.String(), Type.Null()]),
});
