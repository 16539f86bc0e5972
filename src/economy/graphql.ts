import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { DependencyError, type Dependency } from '../errors.js';
import { OutageLog } from '../outage-log.js';
import {
  CircuitBreaker,
  CircuitOpen,
  type CircuitBreakerOptions,
  type CircuitHealth,
} from './circuit-breaker.js';

export interface GraphqlPoolOptions {
  /** Primary endpoint first, then fallbacks, in the order they should be tried. */
  urls: string[];
  clock: Clock;
  /** Time limit of one HTTP request. */
  timeoutMs?: number;
  /** How long an endpoint that just failed is tried after the others. */
  cooldownMs?: number;
  /** Name used in errors and logs. */
  dependency?: Dependency;
  logger?: Pick<Logger, 'warn' | 'info'>;
  fetch?: typeof fetch;
  /** When a query that no endpoint answered stops the next ones from being tried (circuit-breaker.ts). */
  breaker?: Pick<CircuitBreakerOptions, 'failureThreshold' | 'coolDownMs'>;
}

type Failure = 'timeout' | 'down' | 'failed';

/** How a French detail names the dependency at the start of its sentence ("The Ğ1 indexer"). */
const FRENCH_SUBJECTS: Record<Dependency, string> = {
  indexer: 'L’indexeur Ğ1',
  'content store': 'Le stockage de contenu',
  mail: 'Le serveur de mail',
};

class EndpointError extends Error {
  constructor(
    readonly kind: Failure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * GraphQL over HTTP POST against a list of equivalent endpoints. Each request tries them in order; an endpoint
 * that failed recently moves to the back of the line for `cooldownMs`, so a dead primary does not cost every
 * request a time-out. When none answers, the error says whether they timed out, were unreachable or
 * answered with errors (INDEXER_TIMEOUT, INDEXER_DOWN, INDEXER_FAILED). After a few such queries in a row,
 * queries fail at once for a while (circuit-breaker.ts), so a silent indexer stops costing every caller a
 * time-out.
 */
export class GraphqlPool {
  private readonly timeoutMs: number;
  private readonly cooldownMs: number;
  private readonly dependency: Dependency;
  private readonly doFetch: typeof fetch;
  private readonly failedAt = new Map<string, number>();
  /** One per endpoint: an outage is two log lines, not one per request (see outage-log.ts). */
  private readonly outages = new Map<string, OutageLog>();
  private readonly breaker: CircuitBreaker;

  constructor(private readonly options: GraphqlPoolOptions) {
    if (options.urls.length === 0) throw new RangeError('GraphqlPool needs at least one URL');
    this.timeoutMs = options.timeoutMs ?? 8_000;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.dependency = options.dependency ?? 'indexer';
    this.doFetch = options.fetch ?? fetch;
    this.breaker = new CircuitBreaker({
      clock: options.clock,
      ...options.breaker,
      onChange: (state, failures) =>
        state === 'open'
          ? options.logger?.warn({ failures }, `${this.dependency}: circuit open, queries fail at once`)
          : options.logger?.info(`${this.dependency}: circuit closed, queries go through again`),
    });
  }

  /** Whether queries are tried at all, or fail at once since the last ones all failed. */
  health(): CircuitHealth {
    return this.breaker.health();
  }

  /**
   * Runs one query and returns its `data`; throws DependencyError when no endpoint gives a usable answer, or
   * at once (INDEXER_DOWN, with a retry delay) while the circuit is open.
   */
  async query<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    try {
      return await this.breaker.run(
        () => this.tryEndpoints<T>(query, variables, signal),
        () => !signal?.aborted,
      );
    } catch (error) {
      if (!(error instanceof CircuitOpen)) throw error;
      const seconds = Math.ceil(error.retryInMs / 1000);
      throw new DependencyError(
        this.dependency,
        'down',
        {
          en: `The Ğ1 ${this.dependency} is unreachable: its last ${error.failures} queries failed; asked again within ${seconds} s.`,
          fr: `${FRENCH_SUBJECTS[this.dependency]} est injoignable : ses ${error.failures} dernières requêtes ont échoué ; nouvel essai d’ici ${seconds} s.`,
        },
        seconds,
      );
    }
  }

  private async tryEndpoints<T>(
    query: string,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<T> {
    const failures: Failure[] = [];
    for (const url of this.order()) {
      try {
        const data = await this.post<T>(url, query, variables, signal);
        this.failedAt.delete(url);
        this.outage(url).succeeded({ url });
        return data;
      } catch (error) {
        if (signal?.aborted) throw error;
        const kind = error instanceof EndpointError ? error.kind : 'down';
        failures.push(kind);
        this.failedAt.set(url, this.options.clock.now());
        this.outage(url).failed((error as Error).message, { url, kind });
      }
    }
    throw this.summarise(failures);
  }

  private outage(url: string): OutageLog {
    let outage = this.outages.get(url);
    if (!outage) {
      outage = new OutageLog(`${this.dependency} ${url}`, this.options.logger, this.options.clock);
      this.outages.set(url, outage);
    }
    return outage;
  }

  /** Healthy endpoints in configured order, then the ones in cool-down (still better than giving up). */
  private order(): string[] {
    const now = this.options.clock.now();
    const cooling = (url: string) => {
      const at = this.failedAt.get(url);
      return at !== undefined && now - at < this.cooldownMs;
    };
    return [...this.options.urls.filter((u) => !cooling(u)), ...this.options.urls.filter(cooling)];
  }

  private async post<T>(
    url: string,
    query: string,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<T> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    let body: unknown;
    try {
      response = await this.doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new EndpointError(response.status >= 500 ? 'down' : 'failed', `HTTP ${response.status}`);
      }
      body = await response.json();
    } catch (error) {
      if (error instanceof EndpointError) throw error;
      if (timeout.aborted) throw new EndpointError('timeout', `no answer within ${this.timeoutMs} ms`);
      if (error instanceof SyntaxError) throw new EndpointError('failed', 'answer is not JSON');
      throw new EndpointError('down', (error as Error).message);
    }
    const answer = body as { data?: T; errors?: { message?: string }[] } | null;
    if (answer?.errors?.length) {
      throw new EndpointError('failed', `GraphQL error: ${String(answer.errors[0]?.message).slice(0, 200)}`);
    }
    if (!answer || typeof answer.data !== 'object' || answer.data === null) {
      throw new EndpointError('failed', 'answer has no data');
    }
    return answer.data;
  }

  private summarise(failures: Failure[]): DependencyError {
    const many = failures.length > 1 ? 's' : '';
    const tried = `${failures.length} server${many} tried`;
    const triedFr = `${failures.length} serveur${many} essayé${many}`;
    const subject = FRENCH_SUBJECTS[this.dependency];
    if (failures.every((f) => f === 'timeout')) {
      return new DependencyError(this.dependency, 'timeout', {
        en: `The Ğ1 ${this.dependency} timed out (${tried}).`,
        fr: `${subject} n’a pas répondu à temps (${triedFr}).`,
      });
    }
    if (failures.every((f) => f === 'failed')) {
      return new DependencyError(this.dependency, 'failed', {
        en: `The Ğ1 ${this.dependency} gave unusable answers (${tried}).`,
        fr: `${subject} a donné des réponses inutilisables (${triedFr}).`,
      });
    }
    return new DependencyError(this.dependency, 'down', {
      en: `The Ğ1 ${this.dependency} is unreachable (${tried}).`,
      fr: `${subject} est injoignable (${triedFr}).`,
    });
  }
}
