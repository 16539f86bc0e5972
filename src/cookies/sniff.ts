/**
 * A byte-level test that a file's first bytes may hold cookie text, run before they are decoded: every
 * upload is checked for cookies (netscape.ts), and decoding 64 KiB of a photo into a string to run two
 * regular expressions over it was a fifth of what an upload allocated. It answers true whenever
 * `looksLikeNetscapeCookies`'s first filter could match: a TAB, then `true` or `false` in any case, then a
 * TAB (fields 2 and 3 of a cookie line); or the word `cookie` in any case (every header line has it).
 * Case-insensitive regular expressions without the `u` flag never match an ASCII letter with a Latin-1
 * byte above 127, so comparing ASCII letters only is the same test. 64 random KiB pass it about once in
 * fifty million.
 */

const TAB = 0x09;

/** Whether the bytes at `at` spell `word` (lower-case ASCII letters) in any case. */
function spells(bytes: Uint8Array, at: number, word: string): boolean {
  if (at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if ((bytes[at + i]! | 0x20) !== word.charCodeAt(i)) return false;
  return true;
}

function flagBetweenTabs(bytes: Uint8Array, tab: number): boolean {
  return (
    (spells(bytes, tab + 1, 'true') && bytes[tab + 5] === TAB) ||
    (spells(bytes, tab + 1, 'false') && bytes[tab + 6] === TAB)
  );
}

/**
 * Verdicts by the bytes object they were given for. An upload's head is asked twice (its staged mode, then the
 * cookie test of its route), and a scan of 64 KiB costs about 50 µs of the event loop; a head is never changed
 * once read (fs/staging.ts makes a new object when it grows), so the first answer stands.
 */
const verdicts = new WeakMap<Uint8Array, boolean>();

export function mayHoldCookieText(bytes: Uint8Array): boolean {
  let verdict = verdicts.get(bytes);
  if (verdict === undefined) {
    verdict = scan(bytes);
    verdicts.set(bytes, verdict);
  }
  return verdict;
}

function scan(bytes: Uint8Array): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = view.indexOf(TAB); at !== -1; at = view.indexOf(TAB, at + 1))
    if (flagBetweenTabs(view, at)) return true;
  for (const first of [0x63, 0x43]) {
    for (let at = view.indexOf(first); at !== -1; at = view.indexOf(first, at + 1))
      if (spells(view, at, 'cookie')) return true;
  }
  return false;
}
