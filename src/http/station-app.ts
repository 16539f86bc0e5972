import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/**
 * The station's Fastify instance with the TypeBox type provider: handlers registered on it get the types of
 * `request.query`, `request.params`, `request.body`, `request.headers` and of what they send from their route
 * schemas, so no route spells those types by hand. The decorators (`config`, `users`, …) are declared in
 * src/app.ts by declaration merging and are present on this type as well.
 */
export type StationApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * The request of a handler written apart from its route (shared by several routes), typed from the part of
 * the schema it reads, e.g. `StationRequest<{ params: typeof BlobParams }>`.
 */
export type StationRequest<Schema extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  Schema,
  TypeBoxTypeProvider
>;
