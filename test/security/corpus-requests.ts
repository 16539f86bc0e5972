import {
  baseDraft,
  render,
  type Case,
  type Draft,
  type GoodValues,
  type Operation,
} from './corpus-openapi.js';
import { nestedJson } from './corpus-values.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A case from the operation's valid draft with its body and headers replaced. */
function variant(
  op: Operation,
  values: GoodValues,
  label: string,
  change: (draft: Draft) => void,
  after?: (c: Case) => Partial<Case>,
): Case {
  const draft = baseDraft(op, values);
  change(draft);
  const rendered = render(op, draft, label, false);
  return { ...rendered, ...after?.(rendered) };
}

/** Replaces the body with raw bytes under a Content-Type (null: none). */
const rawBody = (type: string | null, body: Buffer | null) => (c: Case) => ({
  headers: [
    ...c.headers.filter(([k]) => k !== 'Content-Type'),
    ...(type ? [['Content-Type', type]] : []),
  ] as Case['headers'],
  body: body ?? undefined,
  contentLength: body !== null,
});

/**
 * Request-level malformations of one operation: broken or misplaced bodies, wrong Content-Type, duplicate
 * parameters and headers, multipart bodies cut short or never closed, bodies cut by a vanishing client.
 */
export function requestCases(op: Operation, values: GoodValues): Case[] {
  const v = (label: string, change: (d: Draft) => void, after?: (c: Case) => Partial<Case>) =>
    variant(op, values, label, change, after);
  const none = () => undefined;
  const json = (text: string | Uint8Array) => rawBody('application/json', Buffer.from(text));
  const form = (text: string) =>
    rawBody('multipart/form-data; boundary=XyZ', Buffer.from(text.replace(/\n/g, '\r\n')));
  const cases: Case[] = [
    v('invalid JSON (cut)', none, json('{"npub":')),
    v('invalid JSON (quotes)', none, json("{'npub': 1}")),
    v('JSON with invalid UTF-8', none, json(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]))),
    v('JSON array body', none, json('[]')),
    v('JSON string body', none, json('"x"')),
    v('JSON null body', none, json('null')),
    v('JSON body with BOM', none, json('\ufeff{}')),
    v('JSON on a multipart route', none, json('{"npub":"x","file":"x"}')),
    v(
      'multipart on a JSON route',
      none,
      form('--XyZ\nContent-Disposition: form-data; name="npub"\n\nx\n--XyZ--\n'),
    ),
    v(
      'urlencoded body',
      none,
      rawBody('application/x-www-form-urlencoded', Buffer.from('npub=x&file_path=a&ipfs_link=b&email=c')),
    ),
    v('Content-Type text/plain', none, rawBody('text/plain', Buffer.from('hello'))),
    v('Content-Type application/xml', none, rawBody('application/xml', Buffer.from('<a/>'))),
    v(
      'Content-Type json utf-16',
      none,
      rawBody('application/json; charset=utf-16', Buffer.from('{}', 'utf16le')),
    ),
    v('multipart without boundary', none, rawBody('multipart/form-data', Buffer.from('--x\r\n'))),
    v('garbage Content-Type', none, rawBody(';;;=/=;', Buffer.from('x'))),
    v('huge Content-Type', none, rawBody(`application/json; x=${'a'.repeat(8000)}`, Buffer.from('{}'))),
    v('missing body (JSON type, length 0)', none, rawBody('application/json', Buffer.alloc(0))),
    v('missing body, no type', none, rawBody(null, null)),
    v('body, no Content-Type', none, rawBody(null, Buffer.from('{"a":1}'))),
    v(
      'duplicate query parameters',
      (d) => (d.query = [...d.query, ...d.query.map(([k]) => [k, 'other'] as [string, string])]),
    ),
    v('duplicate JSON keys', none, (c) => ({
      body:
        c.body && c.headers.some(([k, value]) => k === 'Content-Type' && value === 'application/json')
          ? Buffer.concat([Buffer.from('{"npub":"a",'), c.body.subarray(1)])
          : c.body,
    })),
    v(
      'duplicate multipart fields',
      (d) => d.parts && (d.parts = [...d.parts.filter((p) => p.name !== 'file'), ...d.parts]),
    ),
    v(
      'two files',
      (d) =>
        d.parts &&
        (d.parts = [...d.parts, { name: 'file', filename: 'b.txt', value: 'b', type: 'text/plain' }]),
    ),
    v(
      'too many fields',
      (d) =>
        d.parts &&
        (d.parts = [...Array.from({ length: 12 }, (_, i) => ({ name: `f${i}`, value: 'v' })), ...d.parts]),
    ),
    v('two Content-Type headers', (d) => d.headers.push(['Content-Type', 'text/plain'])),
    v('two Content-Length headers', (d) => d.headers.push(['Content-Length', '1'])),
    v('chunked and Content-Length', (d) => d.headers.push(['Transfer-Encoding', 'chunked'])),
    v('bad chunk size', none, (c) => ({
      headers: [...c.headers, ['Transfer-Encoding', 'chunked']],
      body: Buffer.from('zz\r\nabc\r\n0\r\n\r\n'),
      contentLength: false,
    })),
    v(
      'truncated multipart',
      none,
      form(
        '--XyZ\nContent-Disposition: form-data; name="npub"\n\nx\n--XyZ\nContent-Disposition: form-data; name="file"; filename="a.txt"\nContent-Type: text/plain\n\nhalf a fi',
      ),
    ),
    v(
      'boundary never closes',
      none,
      form('--XyZ\nContent-Disposition: form-data; name="file"; filename="a.txt"\n\ncontent\n'),
    ),
    v('multipart without part headers', none, form('--XyZ\n\nx\n--XyZ--\n')),
    v(
      'multipart with another boundary',
      none,
      form('--Other\nContent-Disposition: form-data; name="file"; filename="a"\n\nx\n--Other--\n'),
    ),
    v('client gone mid-body', none, (c) => ({
      body: Buffer.concat([c.body ?? Buffer.alloc(0), Buffer.alloc(4096, 0x61)]),
      cutAfter: 10,
      mayClose: true,
    })),
    v('declared length larger than sent', none, (c) => ({
      headers: [...c.headers, ['Content-Length', '99999']],
      contentLength: false,
      cutAfter: c.body?.length ?? 0,
      body: c.body ?? Buffer.alloc(0),
      mayClose: true,
    })),
    v('Accept garbage', (d) => d.headers.push(['Accept', '\u00ff/\u00fe;q=NaN'])),
  ];
  // Bodies that cost something to parse or refuse, only where a body is read.
  if (op.body || op.multipart)
    cases.push(
      v('JSON deeply nested body', none, json(nestedJson(20000))),
      v('JSON body over 1 MiB', none, json(`{"a":"${'x'.repeat((1 << 20) + 16)}"}`)),
    );
  if (op.secured)
    for (const [label, value] of [
      ['scheme only', 'Nostr'],
      ['not base64', 'Nostr !!!***'],
      ['base64 of text', `Nostr ${b64('not json')}`],
      ['base64 of an array', `Nostr ${b64('[]')}`],
      ['base64 of nested JSON', `Nostr ${b64(nestedJson(5000))}`],
      ['event without fields', `Nostr ${b64('{"kind":27235}')}`],
      [
        'event with wrong types',
        `Nostr ${b64('{"kind":"x","tags":"y","created_at":1e309,"sig":[],"id":{}}')}`,
      ],
      ['other scheme', 'Bearer abc'],
      ['huge', `Nostr ${'A'.repeat(100 * 1024)}`],
      ['invalid bytes', Buffer.from([0x4e, 0x6f, 0x73, 0x74, 0x72, 0x20, 0xff, 0xfe])],
    ] as [string, string | Buffer][])
      cases.push(v(`Authorization ${label}`, (d) => d.headers.push(['Authorization', value])));
  return cases;
}

/** Methods no route has, and request lines only a raw socket can send, per path. */
export function pathCases(path: string): Case[] {
  const concrete = path.replace(/\{\w+\}/g, 'youtube.com');
  const bare = (method: string, target: string | Buffer, label: string): Case => ({
    label: `${path} ${label}`,
    method,
    target,
    headers: [['Accept', 'application/json']],
    sign: false,
  });
  return [
    ...['FOO', 'PROPFIND', 'PATCH', 'PUT', 'TRACE', 'OPTIONS', 'SEARCH', 'get'].map((m) =>
      bare(m, concrete, `method ${m}`),
    ),
    bare('GET', Buffer.from(`${concrete}?a=\u0000`, 'latin1'), 'raw NUL in target'),
    bare(
      'GET',
      Buffer.concat([Buffer.from(concrete), Buffer.from([0xff, 0xfe])]),
      'raw invalid UTF-8 in target',
    ),
    bare('GET', `${concrete}/%`, 'stray percent'),
    bare('GET', `${concrete}?${'a='.repeat(20000)}`, 'URL of 40 KB'),
    bare('GET', `//${concrete}`, 'double slash'),
    bare('GET', `http://evil.example${concrete}`, 'absolute-form target'),
  ];
}
