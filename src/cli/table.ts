/**
 * A list for people: a header row, then one tab-separated row per item; an empty list says so in words
 * rather than printing nothing, which reads like a failure.
 */
export function printTable(
  out: (line: string) => void,
  header: readonly string[],
  rows: readonly (readonly string[])[],
  whenEmpty: string,
): void {
  if (rows.length === 0) {
    out(whenEmpty);
    return;
  }
  out(header.join('\t'));
  for (const row of rows) out(row.join('\t'));
}
