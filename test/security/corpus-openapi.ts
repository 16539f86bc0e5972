import { jsonFragment, pct, TEXT_VALUES, JSON_VALUES, valueBytes, type BadValue } from './corpus-values.js';
import { multipartBody, type Part } from './corpus-station.js';

interface Schema {
  type?: string;
  anyOf?: Schema[];
  minimum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
}

/** One operation of the OpenAPI document, reduced to what the corpus mutates. */
export interface Operation {
  method: string;
  path: string;
  params: { name: string; in: string; required: boolean; schema: Schema }[];
  /** JSON body fields (also sent urlencoded when `form`). */
  body: { fields: string[]; required: string[]; form: boolean; json: boolean } | null;
  /** Multipart fields named in the summary (`multipart \`file\`, \`npub\``): the document has no schema for them. */
  multipart: string[] | null;
  /** Answers 401: sent both without and with a valid NIP-98 header of the registered user. */
  secured: boolean;
}

interface DocOperation {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, unknown>;
}

export function operationsOf(doc: { paths: Record<string, Record<string, DocOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(byMethod)) {
      const content = op.requestBody?.content ?? {};
      const schema = Object.values(content)[0]?.schema;
      const named = /multipart ([^)]*)\)/.exec(op.summary ?? '')?.[1];
      operations.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).map((p) => ({ ...p, required: p.required === true })),
        body: schema
          ? {
              fields: Object.keys(schema.properties ?? {}),
              required: schema.required ?? [],
              form: 'application/x-www-form-urlencoded' in content,
              json: 'application/json' in content,
            }
          : null,
        multipart: named ? [...named.matchAll(/`(\w+)`/g)].map((m) => m[1]!) : null,
        secured: Object.keys(op.responses ?? {}).includes('401'),
      });
    }
  return operations;
}

/** A valid value for a parameter or field, by name (the station's real user, file, domain), else by type. */
export type GoodValues = Record<string, string>;

/** A request before it is put on the wire. */
export interface Draft {
  path: Record<string, string>;
  query: [string, string][];
  body: { kind: 'json'; fields: [string, Buffer][] } | { kind: 'form'; fields: [string, string][] } | null;
  parts: Part[] | null;
  headers: [string, string | Buffer][];
}

export interface Case {
  label: string;
  method: string;
  target: string | Buffer;
  headers: [string, string | Buffer][];
  body?: Buffer;
  /** Add a NIP-98 header of the registered user, signed over target and body, when sent. */
  sign: boolean;
  /** The request itself is cut short: the server may close without answering. */
  mayClose?: boolean;
  cutAfter?: number;
  contentLength?: boolean;
}

function good(name: string, schema: Schema | undefined, values: GoodValues): string {
  if (name in values) return values[name]!;
  if (schema?.type === 'integer' || schema?.type === 'number') return String(schema.minimum ?? 1);
  return 'x';
}

/** The operation's valid request; `form`: its body urlencoded rather than JSON. */
export function baseDraft(op: Operation, values: GoodValues, form = false): Draft {
  const draft: Draft = { path: {}, query: [], body: null, parts: null, headers: [] };
  for (const p of op.params) {
    if (p.in === 'path') draft.path[p.name] = pct(good(p.name, p.schema, values));
    else if (p.in === 'query' && (p.required || p.name === 'npub'))
      draft.query.push([p.name, pct(good(p.name, p.schema, values))]);
  }
  if (op.body) {
    const names = op.body.fields.filter((f) => op.body!.required.includes(f) || f === 'npub');
    const pick = (f: string) => good(f, undefined, values);
    draft.body =
      op.body.json && !form
        ? { kind: 'json', fields: names.map((f) => [f, Buffer.from(JSON.stringify(pick(f)))]) }
        : { kind: 'form', fields: names.map((f) => [f, pct(pick(f))]) };
  }
  if (op.multipart)
    draft.parts = op.multipart.map((name) =>
      name === 'file'
        ? { name, filename: 'note.txt', value: 'corpus content\n', type: 'text/plain' }
        : { name, value: good(name, undefined, values) },
    );
  return draft;
}

/** Puts a draft on the wire: path and query spliced, body serialised with its Content-Type. */
export function render(op: Operation, draft: Draft, label: string, sign: boolean): Case {
  let path = op.path;
  for (const [name, value] of Object.entries(draft.path)) path = path.replace(`{${name}}`, value);
  const query = draft.query.map(([k, v]) => `${k}=${v}`).join('&');
  const headers: Case['headers'] = [['Accept', 'application/json'], ...draft.headers];
  let body: Buffer | undefined;
  if (draft.body?.kind === 'json') {
    const fields = draft.body.fields.map(([k, v]) => Buffer.concat([Buffer.from(`"${k}":`), v]));
    body = Buffer.concat([Buffer.from('{'), ...fields.flatMap((f, i) => (i ? [Buffer.from(','), f] : [f]))]);
    body = Buffer.concat([body, Buffer.from('}')]);
    headers.push(['Content-Type', 'application/json']);
  } else if (draft.body?.kind === 'form') {
    body = Buffer.from(draft.body.fields.map(([k, v]) => `${k}=${v}`).join('&'));
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  } else if (draft.parts) {
    const form = multipartBody(draft.parts);
    body = form.body;
    headers.push(['Content-Type', form.contentType]);
  }
  const target = query ? `${path}?${query}` : path;
  return {
    label: `${op.method} ${op.path} ${label}${sign ? ' [auth]' : ''}`,
    method: op.method,
    target,
    headers,
    body,
    sign,
  };
}

const clone = (draft: Draft): Draft => structuredClone(draft);

/** One case per (parameter, wrong value): path, query, JSON/form body fields, multipart fields and file name. */
export function parameterCases(op: Operation, values: GoodValues): { label: string; draft: Draft }[] {
  const out: { label: string; draft: Draft }[] = [];
  const each = (where: string, list: BadValue[], apply: (d: Draft, v: BadValue) => void, form = false) => {
    const base = baseDraft(op, values, form);
    for (const value of list) {
      const draft = clone(base);
      apply(draft, value);
      out.push({ label: `${where} = ${value.label}`, draft });
    }
  };
  for (const p of op.params) {
    if (p.in === 'path') each(`path ${p.name}`, TEXT_VALUES, (d, v) => (d.path[p.name] = pct(valueBytes(v))));
    if (p.in !== 'query') continue;
    each(`query ${p.name}`, TEXT_VALUES, (d, v) => {
      d.query = d.query.filter(([k]) => k !== p.name);
      d.query.push([p.name, pct(valueBytes(v))]);
    });
    each(`query ${p.name}`, [{ label: 'as array', text: '' }], (d) =>
      d.query.push([p.name, 'a'], [p.name, 'b']),
    );
    each(`query ${p.name}`, [{ label: 'nested', text: '' }], (d) => d.query.push([`${p.name}[a][b]`, '1']));
  }
  for (const field of op.body?.fields ?? []) {
    const set = (d: Draft, bytes: Buffer, text: string) => {
      if (d.body?.kind === 'json') {
        d.body.fields = d.body.fields.filter(([k]) => k !== field);
        d.body.fields.push([field, bytes]);
      } else if (d.body?.kind === 'form') {
        d.body.fields = d.body.fields.filter(([k]) => k !== field);
        d.body.fields.push([field, text]);
      }
    };
    const apply = (d: Draft, v: BadValue) => set(d, jsonFragment(v), pct(valueBytes(v)));
    if (op.body?.json) each(`body ${field}`, [...TEXT_VALUES, ...JSON_VALUES], apply);
    if (op.body?.form) each(`form ${field}`, TEXT_VALUES, apply, true);
  }
  for (const name of op.multipart ?? []) {
    each(`multipart ${name}`, TEXT_VALUES, (d, v) => {
      d.parts = d.parts!.map((p) => (p.name === name ? { name, value: valueBytes(v) } : p));
    });
    if (name === 'file')
      each('multipart filename', TEXT_VALUES, (d, v) => {
        d.parts = d.parts!.map((p) => (p.name === 'file' ? { ...p, filename: valueBytes(v) } : p));
      });
  }
  return out;
}
