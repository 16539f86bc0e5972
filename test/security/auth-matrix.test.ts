import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publish, waitFor } from '../helpers/relay.js';
import {
  auth22242,
  loginOnRelay,
  nowSeconds,
  register,
  startRelayStation,
  stopRelayStation,
  type RelayStation,
} from '../helpers/relay-station.js';
import {
  challengeAnswer,
  flipHex,
  HOME,
  request,
  ROUTES,
  signNip98,
  STRANGER,
  stranger,
  tamper,
  wrongKind,
  type MatrixContext,
  type MatrixRequest,
  type RouteName,
} from './auth-matrix-cases.js';

type Expected = { status: number; code?: string };
interface Case {
  name: string;
  /** Requests sent in order; the last one is judged (earlier ones set the stage, e.g. a first use). */
  requests: (ctx: MatrixContext) => Promise<MatrixRequest[]>;
  expected: Expected;
}

const route = (name: RouteName) => ROUTES[name];
const passes = (name: RouteName): Expected => route(name).passes;

function nip98Cases(name: RouteName): Case[] {
  const signed = (ctx: MatrixContext, extra: Parameters<typeof signNip98>[2] = {}, npub?: string) => {
    const built = request(name, { npub: npub ?? null });
    built.headers.authorization = signNip98(ctx.owner, built, extra);
    return built;
  };
  const cases: [string, (ctx: MatrixContext) => Promise<MatrixRequest[]>, Expected][] = [
    ['accepted', async (ctx) => [signed(ctx)], passes(name)],
    [
      'replayed',
      async (ctx) => {
        const once = signed(ctx);
        return [once, { ...once }];
      },
      { status: 401, code: 'AUTH_REPLAYED' },
    ],
    [
      'other URL',
      async (ctx) => [signed(ctx, { url: 'http://localhost/api/other' })],
      { status: 401, code: 'AUTH_URL_MISMATCH' },
    ],
    [
      'other method',
      async (ctx) => [signed(ctx, { method: route(name).method === 'GET' ? 'POST' : 'GET' })],
      { status: 401, code: 'AUTH_METHOD_MISMATCH' },
    ],
    [
      'other host',
      async (ctx) => {
        const built = request(name, { host: 'evil.example' });
        built.headers.authorization = signNip98(ctx.owner, built, { url: `http://evil.example${built.url}` });
        return [built];
      },
      { status: 401, code: 'AUTH_URL_MISMATCH' },
    ],
    [
      'two minutes old',
      async (ctx) => [signed(ctx, { createdAt: nowSeconds() - 120 })],
      { status: 401, code: 'AUTH_EXPIRED' },
    ],
    [
      'two minutes ahead',
      async (ctx) => [signed(ctx, { createdAt: nowSeconds() + 120 })],
      { status: 401, code: 'AUTH_EXPIRED' },
    ],
    [
      'wrong kind',
      async (ctx) => {
        const built = request(name, {});
        built.headers.authorization = wrongKind(ctx.owner, built);
        return [built];
      },
      { status: 401, code: 'AUTH_WRONG_KIND' },
    ],
    [
      'an unregistered key',
      async () => {
        const built = request(name, {});
        built.headers.authorization = signNip98(stranger, built);
        return [built];
      },
      { status: 403, code: 'NOT_REGISTERED' },
    ],
    [
      'forged id',
      async (ctx) => {
        const built = signed(ctx);
        built.headers.authorization = tamper(
          built.headers.authorization!,
          (e) => (e.id = flipHex(e.id as string)),
        );
        return [built];
      },
      { status: 401, code: 'AUTH_BAD_SIGNATURE' },
    ],
    [
      'forged signature',
      async (ctx) => {
        const built = signed(ctx);
        built.headers.authorization = tamper(
          built.headers.authorization!,
          (e) => (e.sig = flipHex(e.sig as string)),
        );
        return [built];
      },
      { status: 401, code: 'AUTH_BAD_SIGNATURE' },
    ],
    [
      'forged content',
      async (ctx) => {
        const built = signed(ctx);
        built.headers.authorization = tamper(built.headers.authorization!, (e) => (e.content = 'x'));
        return [built];
      },
      { status: 401, code: 'AUTH_BAD_SIGNATURE' },
    ],
  ];
  if (route(name).body || route(name).query) {
    cases.push([
      'another npub named',
      async (ctx) => [signed(ctx, {}, ctx.other.npub)],
      { status: 403, code: 'NPUB_MISMATCH' },
    ]);
  }
  if (route(name).body) {
    cases.push([
      'payload of another body',
      async (ctx) => [signed(ctx, { body: 'something else' })],
      { status: 401, code: 'AUTH_PAYLOAD_MISMATCH' },
    ]);
  }
  return cases.map(([label, requests, expected]) => ({ name: `NIP-98 ${label}`, requests, expected }));
}

function challengeCases(name: RouteName): Case[] {
  const answered = async (
    ctx: MatrixContext,
    options: { signer?: 'owner' | 'stranger'; from?: string; createdAt?: number } = {},
  ) => {
    const built = request(name, { address: options.from ?? HOME });
    const challenge = await ctx.challenge(ctx.owner, HOME);
    built.headers.authorization = challengeAnswer(
      options.signer === 'stranger' ? stranger : ctx.owner,
      challenge,
      options.createdAt,
    );
    return built;
  };
  const cases: [string, (ctx: MatrixContext) => Promise<MatrixRequest[]>, Expected][] = [
    ['accepted', async (ctx) => [await answered(ctx)], passes(name)],
    [
      'replayed',
      async (ctx) => {
        const once = await answered(ctx);
        return [once, { ...once }];
      },
      { status: 401, code: 'AUTH_CHALLENGE_INVALID' },
    ],
    [
      'from a stranger address',
      async (ctx) => [await answered(ctx, { from: STRANGER })],
      { status: 401, code: 'AUTH_CHALLENGE_OTHER_ADDRESS' },
    ],
    [
      'signed by another key',
      async (ctx) => [await answered(ctx, { signer: 'stranger' })],
      { status: 401, code: 'AUTH_CHALLENGE_OTHER_KEY' },
    ],
    [
      'older than the challenge lifetime',
      async (ctx) => [await answered(ctx, { createdAt: nowSeconds() - 200 })],
      { status: 401, code: 'AUTH_EXPIRED' },
    ],
    [
      'dated an hour ahead',
      async (ctx) => [await answered(ctx, { createdAt: nowSeconds() + 3_600 })],
      { status: 401, code: 'AUTH_EXPIRED' },
    ],
    [
      'a challenge never issued',
      async (ctx) => {
        const built = request(name, {});
        built.headers.authorization = challengeAnswer(ctx.owner, 'ab'.repeat(32));
        return [built];
      },
      { status: 401, code: 'AUTH_CHALLENGE_INVALID' },
    ],
    [
      'sniffed after the relay saw it',
      async (ctx) => {
        const built = request(name, {});
        const challenge = await ctx.challenge(ctx.owner, HOME);
        await ctx.answerOnRelay(ctx.owner, challenge);
        built.headers.authorization = challengeAnswer(ctx.owner, challenge);
        return [built];
      },
      { status: 401, code: 'AUTH_CHALLENGE_INVALID' },
    ],
    [
      'forged signature',
      async (ctx) => {
        const built = await answered(ctx);
        built.headers.authorization = tamper(
          built.headers.authorization!,
          (e) => (e.sig = flipHex(e.sig as string)),
        );
        return [built];
      },
      { status: 401, code: 'AUTH_BAD_SIGNATURE' },
    ],
  ];
  return cases.map(([label, requests, expected]) => ({
    name: `signed challenge ${label}`,
    requests,
    expected,
  }));
}

function relayCases(name: RouteName): Case[] {
  const proof = route(name).needsProof;
  const refused = (code: string): Expected => ({ status: 401, code: proof ? 'PROOF_REQUIRED' : code });
  const cases: [string, (ctx: MatrixContext) => Promise<MatrixRequest[]>, Expected][] = [
    [
      'from the address that asked',
      async (ctx) => [request(name, { npub: ctx.owner.npub })],
      proof ? refused('') : passes(name),
    ],
    [
      'from a stranger address',
      async (ctx) => [request(name, { npub: ctx.owner.npub, address: STRANGER })],
      refused('AUTH_NOT_FOUND'),
    ],
    [
      'without a station challenge',
      async (ctx) => [request(name, { npub: ctx.legacy.npub })],
      refused('AUTH_CHALLENGE_NOT_ISSUED'),
    ],
    // A missing npub is a missing credential, an upload's too: even from an address where one key is logged
    // in, no key is guessed for the caller (docs/auth-model.md, "Uploads that send the file first").
    ['with no npub', async () => [request(name, {})], refused('AUTH_REQUIRED')],
    [
      'with no npub, from a stranger address',
      async () => [request(name, { address: STRANGER })],
      refused('AUTH_REQUIRED'),
    ],
  ];
  return cases.map(([label, requests, expected]) => ({
    name: `relay-observed ${label}`,
    requests,
    expected,
  }));
}

const CASES = (Object.keys(ROUTES) as RouteName[]).flatMap((name) =>
  [...nip98Cases(name), ...challengeCases(name), ...relayCases(name)].map((c) => ({ ...c, route: name })),
);

describe(`authentication matrix (${CASES.length} cases)`, () => {
  let e: RelayStation;
  let ctx: MatrixContext;
  beforeAll(async () => {
    e = await startRelayStation({ UPLOAD_MAX_PER_MINUTE: '10000', RATE_LIMIT_MAX: '100000' });
    const [owner, other, legacy] = await Promise.all(
      ['owner', 'other', 'legacy'].map((who) => register(e.t, `${who}@example.org`)),
    );
    await loginOnRelay(e, owner!);
    await publish(e.relay.url, auth22242(legacy!));
    await waitFor(() => e.t.deps.auth.observed.lastRefusal(legacy!.hex) !== null);
    ctx = {
      owner: owner!,
      other: other!,
      legacy: legacy!,
      challenge: async (key, address) =>
        (
          await e.t.app.inject({ url: `/api/nip42/challenge?npub=${key.npub}`, remoteAddress: address })
        ).json().challenge,
      answerOnRelay: async (key, challenge) => {
        await publish(e.relay.url, auth22242(key, { tags: [['challenge', challenge]] }));
        await waitFor(
          () =>
            e.t.deps.auth.observed.lastRefusal(key.hex) === null &&
            e.t.deps.auth.cache.lookup(key.hex, HOME, 0) !== null,
        );
      },
    };
  });
  afterAll(() => stopRelayStation(e));

  it('has at least 60 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(60));

  it.each(CASES)('$route: $name', async ({ requests, expected }) => {
    let answer;
    for (const built of await requests(ctx)) answer = await e.t.app.inject(built);
    expect({
      status: answer!.statusCode,
      code: answer!.statusCode >= 400 ? answer!.json().code : undefined,
    }).toEqual({ status: expected.status, code: expected.code });
    if (answer!.statusCode >= 400)
      expect(answer!.json()).toEqual({ detail: expect.any(String), code: expect.any(String) });
  });
});
