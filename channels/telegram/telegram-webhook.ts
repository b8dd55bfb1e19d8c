// Telegram webhook mode [baton decision]: setWebhook at start, updates POSTed to `/telegram/<alias>/webhook` on the
// gateway's HTTP server. A request is answered 200 only once its update is in the inbox (or deliberately skipped),
// so Telegram redelivers whatever failed; a redelivered update maps to the same event id and the inbox dedupes it.
//
// Several gateways may run the same bot: each calls setWebhook with the same parameters (idempotent) and serves
// the route. None calls deleteWebhook on stop (it would cut the others off); long polling deletes it at its start.

import { setTimeout as sleep } from 'node:timers/promises';
import { type Bot, GrammyError } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type {
  ChannelHttpRequest,
  ChannelHttpResponse,
  ChannelHttpRoute,
} from '../../src/channel-host/types.ts';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import { sameSecret } from '../../src/core/secret-compare.ts';

export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';
/** How long one request waits for the inbox before it is answered 503 (Telegram then redelivers). */
const DELIVER_TIMEOUT_MS = 20_000;

export const webhookPath = (alias: string): string => `/telegram/${alias}/webhook`;

export interface WebhookOptions {
  alias: string;
  bot: Bot;
  logger: Logger;
  /** The public URL handed to setWebhook (its path reaches webhookPath(alias)). */
  url: string;
  secret: string;
  allowedUpdates: readonly string[];
  /** Handles one raw update; resolves once it is in the inbox (or deliberately skipped). */
  handle(update: unknown, stopping: AbortSignal): Promise<void>;
  /** start() resolves at the latest after this long; setup goes on retrying in the background. */
  readyTimeoutMs: number;
  deliverTimeoutMs?: number;
}

export interface Webhook {
  route: ChannelHttpRoute;
  /** getMe (then `onIdentity`, after which requests are taken), then setWebhook. */
  start(onIdentity: (me: UserFromGetMe) => void): Promise<void>;
  /** Stops taking requests and waits for those under way. */
  stop(): Promise<void>;
}

/** A client error that retrying cannot fix (bad token, a URL Telegram refuses). */
const isFatal = (err: unknown) =>
  err instanceof GrammyError && err.error_code >= 400 && err.error_code < 500 && err.error_code !== 429;

const json = (status: number, error?: string): ChannelHttpResponse =>
  error === undefined ? { status } : { status, body: { error } };

export function createWebhook(opts: WebhookOptions): Webhook {
  const { bot, logger } = opts;
  const path = webhookPath(opts.alias);
  let stopping = new AbortController();
  let taking = false;
  let setup: Promise<void> = Promise.resolve();
  const pending = new Set<Promise<unknown>>();

  async function configure(onIdentity: (me: UserFromGetMe) => void, signal: AbortSignal): Promise<void> {
    let identified = false;
    for (let attempt = 1; !signal.aborted; attempt++) {
      try {
        if (!identified) {
          onIdentity(await bot.api.getMe());
          identified = true;
          taking = !signal.aborted;
        }
        await bot.api.setWebhook(opts.url, {
          secret_token: opts.secret,
          allowed_updates: opts.allowedUpdates as never,
        });
        logger.info({ path }, 'telegram webhook set');
        return;
      } catch (err) {
        if (signal.aborted) return;
        if (isFatal(err)) {
          const what = identified ? 'setWebhook' : 'getMe';
          return void logger.error({ err: errorMessage(err) }, `telegram ${what} refused; no webhook set`);
        }
        logger.warn({ attempt, err: errorMessage(err) }, 'telegram webhook setup failed; retrying');
        await sleep(Math.min(500 * 2 ** (attempt - 1), 15_000), undefined, { signal }).catch(() => {});
      }
    }
  }

  async function handle(req: ChannelHttpRequest): Promise<ChannelHttpResponse> {
    if (!sameSecret(req.headers[SECRET_HEADER], opts.secret)) {
      logger.warn({ path }, 'telegram webhook request with a wrong or missing secret token refused');
      return json(401, 'bad secret token');
    }
    if (!taking) return json(503, 'channel not started');
    let update: unknown;
    try {
      update = JSON.parse(req.body.toString('utf8'));
    } catch {
      return json(400, 'body is not a JSON object');
    }
    if (typeof update !== 'object' || update === null) return json(400, 'body is not a JSON object');
    const signal = AbortSignal.any([
      stopping.signal,
      AbortSignal.timeout(opts.deliverTimeoutMs ?? DELIVER_TIMEOUT_MS),
    ]);
    const work = opts.handle(update, signal);
    pending.add(work);
    void work.catch(() => {}).finally(() => pending.delete(work));
    const gaveUp = new Promise<never>((_, reject) => {
      signal.addEventListener('abort', () => reject(new Error('gave up waiting for the inbox')), {
        once: true,
      });
    });
    try {
      await Promise.race([work, gaveUp]);
      return json(200);
    } catch (err) {
      logger.warn({ err: errorMessage(err) }, 'telegram webhook update not taken; Telegram will redeliver');
      return json(503, 'update not taken');
    }
  }

  return {
    route: { method: 'POST', path, handle },
    async start(onIdentity) {
      stopping = new AbortController();
      const { signal } = stopping;
      setup = configure(onIdentity, signal);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), opts.readyTimeoutMs);
      });
      const outcome = await Promise.race([setup, late]);
      clearTimeout(timer);
      if (outcome === 'late')
        logger.warn('Telegram is not answering yet; the webhook setup keeps retrying in the background');
    },
    async stop() {
      taking = false;
      stopping.abort();
      await setup;
      await Promise.allSettled([...pending]);
    },
  };
}
