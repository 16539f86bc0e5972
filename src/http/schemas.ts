import { Type } from 'typebox';

/** The body of every 4xx/5xx (docs/api-contract.md §6). */
export const ErrorBody = Type.Object(
  { detail: Type.String(), code: Type.String() },
  { $id: 'ErrorBody', description: 'Error: human sentence and stable UPPER_SNAKE code' },
);

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorBody]));

/** A 200 answer that is a document rather than JSON (a page, a cookie file). */
export const documentResponse = (contentType: string, description: string) => ({
  description,
  content: { [contentType]: { schema: { type: 'string' } } },
});
