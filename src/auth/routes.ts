import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { localTimestamp } from '../clock.js';
import { errorResponses } from '../http/schemas.js';
import type { StationApp } from '../http/station-app.js';
import { requireNpub } from '../identity/pubkey.js';
import { nip19 } from 'nostr-tools';

const KeyQuery = Type.Object({
  npub: Type.String({ maxLength: 128, description: 'npub or 64 hex characters' }),
});

const Challenge = Type.Object({
  challenge: Type.String(),
  expires_in: Type.Integer(),
  pubkey_hex: Type.String(),
});

const TestNostr = Type.Object({
  input_key: Type.String(),
  input_format: Type.String(),
  hex_pubkey: Type.String(),
  npub: Type.String(),
  relay_url: Type.String(),
  relay_connected: Type.Boolean(),
  auth_verified: Type.Boolean(),
  multipass_registered: Type.Boolean(),
  status: Type.Union([Type.Literal('complete'), Type.Literal('partial'), Type.Literal('error')]),
  message: Type.String(),
  checks: Type.Object({
    key_valid: Type.Boolean(),
    relay_connected: Type.Boolean(),
    recent_auth_event: Type.Boolean(),
    proof_of_possession: Type.Boolean(),
    user_directory: Type.Boolean(),
  }),
  email: Type.Optional(Type.String()),
  user_directory: Type.Optional(Type.String()),
  timestamp: Type.String(),
});

const Me = Type.Object({
  email: Type.Optional(
    Type.String({ description: 'only when this request carries a proof (NIP-98 or a signed challenge)' }),
  ),
  npub: Type.String(),
  hex: Type.String(),
  g1pub: Type.Union([Type.String(), Type.Null()]),
  auth_method: Type.String(),
  proof: Type.Boolean(),
});

const OptionalKeyQuery = Type.Object({ npub: Type.Optional(Type.String({ maxLength: 128 })) });

export async function authRoutes(app: StationApp): Promise<void> {
  app.get(
    '/api/nip42/challenge',
    {
      schema: {
        summary: 'Issue a single-use NIP-42 challenge (120 s) for a key',
        tags: ['auth'],
        querystring: KeyQuery,
        response: { 200: Challenge, ...errorResponses(400, 503, 507) },
      },
    },
    async (request) => {
      const { hex } = requireNpub(request.query.npub);
      const issued = await app.auth.challenges.issue(hex, request.ip);
      return { challenge: issued.challenge, expires_in: issued.expiresIn, pubkey_hex: hex };
    },
  );

  app.get(
    '/api/me',
    {
      schema: {
        summary: 'The authenticated caller and its identity on this station',
        tags: ['auth'],
        security: [{ nostr: [] }],
        querystring: OptionalKeyQuery,
        response: { 200: Me, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { auth, user } = await request.requireOwner({ npub: request.query.npub });
      return {
        // Who is behind a key is told only to a caller who proved holding it in this request.
        ...(auth.proof ? { email: user.email } : {}),
        npub: user.npub,
        hex: user.hex,
        g1pub: user.g1pub,
        auth_method: auth.method,
        proof: auth.proof,
      };
    },
  );

  const testNostr = async (request: FastifyRequest, input: string) => {
    const { hex, format } = requireNpub(input);
    const relayConnected = app.relay.connected;
    const [observed, user, proven] = await Promise.all([
      app.auth.observed.find(hex, request.ip),
      app.users.findByHex(hex),
      request.headers.authorization
        ? request.authenticate({ npub: hex, requireProof: true }).then(
            () => true,
            () => false,
          )
        : Promise.resolve(false),
    ]);
    const authVerified = observed !== null || proven;
    const status = !relayConnected ? 'error' : authVerified && user ? 'complete' : 'partial';
    const message = !relayConnected
      ? 'The relay is not reachable: authentication cannot be checked.'
      : !user
        ? 'This key is not registered on this station.'
        : !authVerified
          ? 'Registered, but no recent NIP-42 authentication: publish a kind 22242 event to the relay.'
          : 'Authenticated and registered.';
    return {
      input_key: input,
      input_format: format,
      hex_pubkey: hex,
      npub: nip19.npubEncode(hex),
      relay_url: app.publicUrls(request).relay,
      relay_connected: relayConnected,
      auth_verified: authVerified,
      multipass_registered: user !== null,
      status,
      message,
      checks: {
        key_valid: true,
        relay_connected: relayConnected,
        recent_auth_event: observed !== null,
        proof_of_possession: proven,
        user_directory: user !== null,
      },
      // Who is behind a key is only told to that key's holder.
      ...(proven && user ? { email: user.email, user_directory: `nostr/${user.email}` } : {}),
      timestamp: localTimestamp(app.clock.now()),
    } satisfies Static<typeof TestNostr>;
  };

  const schema = (summary: string) => ({
    summary,
    tags: ['auth'],
    response: { 200: TestNostr, ...errorResponses(400) },
  });
  app.get(
    '/api/test-nostr',
    {
      schema: { ...schema('Check a key: relay, NIP-42 authentication, registration'), querystring: KeyQuery },
    },
    (request) => testNostr(request, request.query.npub),
  );
  app.post(
    '/api/test-nostr',
    { schema: { ...schema('Same as GET, with the key in a form field'), body: KeyQuery } },
    (request) => testNostr(request, request.body.npub),
  );
}
