import { Type } from 'typebox';

/** The body of every 4xx/5xx (CONTRACT §6). */
export const ErrorBody = Type.Object(
  { detail: Type.String(), code: Type.String() },
  { $id: 'ErrorBody', description: 'Error: human sentence and stable UPPER_SNAKE code' },
);

export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((status) => [status, ErrorBody]));
