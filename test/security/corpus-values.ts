/**
 * Wrong values for one parameter. A `text` value is placed as the parameter's text (percent-encoded in a
 * URL, a JSON string in a JSON body, raw bytes in a multipart field); `json` is raw JSON text put in place of
 * the value in a JSON body (so numbers like 1e309 and nesting arrive as such); `bytes` are raw bytes.
 */
export type BadValue =
  { label: string; text: string } | { label: string; json: string } | { label: string; bytes: Buffer };

const HUGE = 'A'.repeat(100 * 1024);

/** `{"a":{"a":…}}` nested `depth` times, as JSON text. */
export function nestedJson(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Values that make sense anywhere a parameter is text (path, query, header, form and multipart fields). */
export const TEXT_VALUES: BadValue[] = [
  { label: 'empty', text: '' },
  { label: 'huge 100 KB', text: HUGE },
  { label: 'nested object as text', text: nestedJson(50) },
  { label: 'array as text', text: '["a","b"]' },
  { label: 'negative', text: '-1' },
  { label: 'NaN', text: 'NaN' },
  { label: '1e309', text: '1e309' },
  { label: '-Infinity', text: '-Infinity' },
  { label: 'very long number', text: '9'.repeat(400) },
  { label: 'hex number', text: '0x1F' },
  { label: 'negative zero', text: '-0' },
  { label: 'NUL byte', text: 'a\u0000b' },
  { label: 'literal %00', text: '%00' },
  { label: '../ sequence', text: '../../../../etc/passwd' },
  { label: 'backslash traversal', text: '..\\..\\..\\windows\\win.ini' },
  { label: 'encoded traversal', text: '%2e%2e%2f%2e%2e%2fetc%2fpasswd' },
  { label: 'RTL override', text: 'abc\u202egpj.exe' },
  { label: 'lone surrogate', text: '\ud800x' },
  { label: 'emoji', text: '😀'.repeat(64) },
  { label: 'CRLF', text: 'a\r\nX-Injected: 1' },
  { label: 'markup', text: '<script>alert(1)</script>' },
  { label: '__proto__', text: '__proto__' },
  { label: 'format string', text: '%s%n%x%d' },
  { label: 'spaces only', text: '   ' },
  { label: 'invalid UTF-8', bytes: Buffer.from([0x61, 0xff, 0xfe, 0xc0, 0xae, 0x80]) },
  { label: 'overlong UTF-8 dots', bytes: Buffer.from([0xc0, 0xae, 0xc0, 0xae, 0x2f, 0x78]) },
];

/** JSON-only wrong types and shapes, for a JSON body field. */
export const JSON_VALUES: BadValue[] = [
  { label: 'number', json: '123' },
  { label: 'boolean', json: 'true' },
  { label: 'null', json: 'null' },
  { label: 'object', json: '{}' },
  { label: 'array of strings', json: '["a","b"]' },
  { label: 'array of one', json: '["a"]' },
  { label: 'deeply nested object', json: nestedJson(5000) },
  { label: 'deeply nested array', json: '['.repeat(5000) + ']'.repeat(5000) },
  { label: 'json 1e309', json: '1e309' },
  { label: 'json -1', json: '-1' },
  { label: 'json NaN', json: 'NaN' },
  { label: 'json long number', json: '1' + '0'.repeat(400) },
  { label: 'json escaped NUL', json: '"a\\u0000b"' },
  { label: 'json object with __proto__', json: '{"__proto__":{"polluted":1}}' },
];

/** The bytes of a value as text (raw bytes kept as they are). */
export function valueBytes(value: BadValue): Buffer {
  if ('bytes' in value) return value.bytes;
  return Buffer.from('text' in value ? value.text : value.json, 'utf8');
}

/** Percent-encodes every byte outside the unreserved set: raw bytes and lone surrogates survive as bytes. */
export function pct(value: string | Buffer): string {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The JSON text of a value in a JSON body: strings quoted; raw bytes spliced inside quotes unescaped. */
export function jsonFragment(value: BadValue): Buffer {
  if ('json' in value) return Buffer.from(value.json);
  if ('text' in value) return Buffer.from(JSON.stringify(value.text));
  return Buffer.concat([Buffer.from('"'), value.bytes, Buffer.from('"')]);
}
