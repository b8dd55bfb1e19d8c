// The Slack channel on @slack/bolt: Socket Mode or HTTP mode in (messages, mentions, button presses), Web API out.
import { App, SocketModeReceiver, webApi } from '@slack/bolt';
import { receiveWithRetry } from '../../src/channel-host/receive-retry.ts';
import type {
  ChannelAdapter,
  ChannelHost,
  InboundEvent,
  MessageRef,
  ReceiveResult,
} from '../../src/channel-host/types.ts';
import { errorMessage } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/logger.ts';
import { boltLogger } from './bolt-logger.ts';
import { createSlackFiles, SLACK_MAX_UPLOAD_BYTES } from './file-transfer.ts';
import { holdEventAcks } from './hold-event-acks.ts';
import { createSlackHttpEndpoint, type SlackHttpHandlers } from './http-mode.ts';
import { type InboundContext, type Mapped, mapAction, mapMessage } from './inbound.ts';
import { isFormattingRejected, mapSendError, messageArgs, SLACK_MAX_MESSAGE_LENGTH } from './outbound.ts';
import { HTTP_MODE_LISTENING, NO_MODE } from './slack-messages.ts';
import { guardFrames, keepReconnecting } from './socket-guard.ts';

export interface SlackAdapterOptions {
  alias: string;
  botToken: string;
  /** App-level token (`xapp-…`): Socket Mode. */
  appToken?: string | undefined;
  /** HTTP mode when there is no app token: `POST /slack/<alias>/events` on the gateway's port, signed with this. */
  signingSecret?: string | undefined;
  /** Web API root (`clientOptions.slackApiUrl`; covers apps.connections.open too). */
  apiBaseUrl: string;
  /** Served channel ids; empty: all. */
  channelIds: string[];
  /** Reply in the thread of the triggering message (channels; DMs stay one conversation). */
  threadReplies: boolean;
  logger: Logger;
  /** Retries of a call that failed with 5xx or a network error before it surfaces (default 3). */
  retries?: number;
  /** Socket Mode: the waits between hand-over attempts (default RECEIVE_RETRY_DELAYS_MS, about 30 s). */
  handOverRetryDelaysMs?: readonly number[];
  /** Socket Mode pong timeout, also the reconnect back-off step (Slack's default: 5000 ms). */
  pingTimeoutMs?: number;
}

const STOP_TIMEOUT_MS = 5000;

export function createSlackAdapter(opts: SlackAdapterOptions): ChannelAdapter {
  const key = `slack.${opts.alias}`;
  const log = opts.logger;
  // Fresh objects each time: the Socket Mode client writes into the options it is given.
  const clientOptions = (): webApi.WebClientOptions => ({
    slackApiUrl: opts.apiBaseUrl,
    // Bounded (the library's default retries for ~30 minutes); a 429 surfaces at once as a rate-limit error.
    retryConfig: { retries: opts.retries ?? 3, factor: 2, minTimeout: 500, maxTimeout: 5000 },
    rejectRateLimitedCalls: true,
  });
  const web = new webApi.WebClient(opts.botToken, { ...clientOptions(), logger: boltLogger(log) });
  const files = createSlackFiles({ key, botToken: opts.botToken, apiBaseUrl: opts.apiBaseUrl, web });
  let receiver: SocketModeReceiver | null = null;
  let cancelReconnects = () => {};
  let httpHandlers: SlackHttpHandlers | null = null;
  const http =
    !opts.appToken && opts.signingSecret
      ? createSlackHttpEndpoint({
          alias: opts.alias,
          signingSecret: opts.signingSecret,
          logger: log,
          handlers: () => httpHandlers,
        })
      : null;

  // Aborted on stop: a hand-over still retrying then gives up (logged as lost).
  let stopping = new AbortController();

  /**
   * The host's answer, or null when the event could not be handed over. `retried` (Socket Mode): a failed hand-over
   * is retried here for a while; HTTP mode tries once and throws, the request gets a 500 and Slack redelivers.
   */
  async function handOver(
    host: ChannelHost,
    mapped: Mapped<InboundEvent>,
    what: string,
    retryNum: number | undefined,
    retried: boolean,
  ): Promise<ReceiveResult | null> {
    if (!mapped.ok) {
      if (mapped.malformed) log.warn({ channel: key, reason: mapped.reason }, `slack ${what} skipped`);
      else log.debug({ channel: key, reason: mapped.reason }, `slack ${what} skipped`);
      return { accepted: false, reason: 'invalid' }; // skipped: acknowledged, nothing to hand over
    }
    if (retryNum) log.debug({ channel: key, retry_num: retryNum }, 'slack redelivery');
    const event = mapped.event;
    const result = retried
      ? await receiveWithRetry(host, event, {
          logger: log,
          signal: stopping.signal,
          ...(opts.handOverRetryDelaysMs ? { delaysMs: opts.handOverRetryDelaysMs } : {}),
        })
      : await host.receive(event);
    if (result && !result.accepted) {
      log.debug({ channel: key, reason: result.reason }, `slack ${what} not accepted`);
    }
    return result;
  }

  /** A press's notice (an approval's ack) goes to the presser alone, as an ephemeral message. */
  function noticeOf(mapped: Mapped<InboundEvent>, result: ReceiveResult | null) {
    if (!mapped.ok || mapped.event.kind !== 'action' || !result?.accepted || !result.notice) return undefined;
    const { event } = mapped;
    const text = result.notice;
    return async () => {
      await web.chat
        .postEphemeral({
          channel: event.chat,
          user: event.sender.id,
          text,
          ...(event.thread ? { thread_ts: event.thread } : {}),
        })
        .catch((err: unknown) =>
          log.warn({ channel: key, err: errorMessage(err) }, 'slack press notice failed'),
        );
    };
  }

  async function inboundContext(): Promise<InboundContext> {
    const auth = await web.auth.test();
    return {
      channelKey: key,
      botUserId: String(auth.user_id ?? ''),
      botId: String(auth.bot_id ?? ''),
      threadReplies: opts.threadReplies,
      channelIds: new Set(opts.channelIds),
    };
  }

  async function startHttpMode(host: ChannelHost, path: string) {
    const ctx = await inboundContext();
    httpHandlers = {
      event: async (event, retryNum) => {
        await handOver(host, mapMessage(event, ctx), 'event', retryNum, false);
      },
      action: async (payload) => {
        const mapped = mapAction(payload, ctx);
        const after = noticeOf(mapped, await handOver(host, mapped, 'button press', undefined, false));
        return after ? { after } : undefined;
      },
    };
    log.info({ channel: key, path }, HTTP_MODE_LISTENING);
  }

  async function startSocketMode(host: ChannelHost, appToken: string) {
    const ctx = await inboundContext();
    const logger = boltLogger(log);
    const r = new SocketModeReceiver({
      appToken,
      logger,
      ...(opts.pingTimeoutMs ? { clientPingTimeout: opts.pingTimeoutMs } : {}),
      installerOptions: { clientOptions: clientOptions() },
    });
    // botId/botUserId given: Bolt's authorize needs no auth.test of its own (a failed one would stick).
    const app = new App({
      token: opts.botToken,
      botId: ctx.botId,
      botUserId: ctx.botUserId,
      receiver: r,
      logger,
      clientOptions: clientOptions(),
    });
    // Bolt has already asked for the envelope's ack; it leaves once the event is in (see hold-event-acks.ts).
    const acks = holdEventAcks(r.client, log.child({ channel: key }));
    app.event('message', async ({ event, body, context }) => {
      const result = await handOver(host, mapMessage(event, ctx), 'message', context.retryNum, true);
      if (!result) acks.refuse(body);
    });
    app.event('app_mention', async ({ event, body, context }) => {
      const result = await handOver(host, mapMessage(event, ctx), 'mention', context.retryNum, true);
      if (!result) acks.refuse(body);
    });
    app.action(/.*/, async ({ ack, body }) => {
      await ack(); // first: Slack wants the ack within 3 s, whatever the handler does (and never resends a press)
      const mapped = mapAction(body, ctx);
      await noticeOf(mapped, await handOver(host, mapped, 'button press', undefined, true))?.();
    });
    app.error(async (err) => {
      log.warn({ channel: key, err: err.message }, 'slack event handling failed');
    });
    guardFrames(r.client, log.child({ channel: key }));
    cancelReconnects = keepReconnecting(r.client, log.child({ channel: key }));
    receiver = r;
    await app.start();
  }

  return {
    key,
    maxMessageLength: SLACK_MAX_MESSAGE_LENGTH,
    maxUploadBytes: SLACK_MAX_UPLOAD_BYTES,
    download: files.download,
    sendFile: files.sendFile,
    async start(host) {
      stopping = new AbortController();
      if (opts.appToken) return startSocketMode(host, opts.appToken);
      if (http) return startHttpMode(host, http.route.path);
      log.error({ channel: key }, NO_MODE);
    },
    routes: () => (http ? [http.route] : []),
    async stop() {
      stopping.abort();
      if (http) {
        httpHandlers = null;
        await http.drain();
      }
      cancelReconnects();
      const r = receiver;
      receiver = null;
      if (!r) return;
      // Awaited here (App.stop does not wait for the close handshake, which leaves a 30 s timer behind).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        r.client.disconnect(),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STOP_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
    },
    async send(to, msg): Promise<MessageRef> {
      const post = (formatted: boolean) =>
        web.chat.postMessage({
          channel: to.chat,
          ...(to.thread ? { thread_ts: to.thread } : {}),
          ...messageArgs(msg, formatted),
        });
      try {
        const res = await post(true).catch((err: unknown) => {
          if (!isFormattingRejected(err)) throw err;
          log.warn(
            { channel: key, err: errorMessage(err) },
            'slack refused the formatting; sent as plain text',
          );
          return post(false);
        });
        if (!res.ts) throw new Error(`slack ${key}: chat.postMessage returned no ts`);
        return { channel: key, chat: to.chat, messageId: res.ts };
      } catch (err) {
        throw mapSendError(err);
      }
    },
    async edit(ref, msg) {
      try {
        // An empty blocks array removes the old buttons (omitting it would keep them).
        const update = (formatted: boolean) =>
          web.chat.update({
            channel: ref.chat,
            ts: ref.messageId,
            blocks: [],
            ...messageArgs(msg, formatted),
          });
        await update(true).catch((err: unknown) => {
          if (!isFormattingRejected(err)) throw err;
          log.warn(
            { channel: key, err: errorMessage(err) },
            'slack refused the formatting; edited as plain text',
          );
          return update(false);
        });
      } catch (err) {
        throw mapSendError(err);
      }
    },
    async delete(ref) {
      try {
        await web.chat.delete({ channel: ref.chat, ts: ref.messageId });
      } catch (err) {
        throw mapSendError(err);
      }
    },
    async typing() {
      // Slack has no typing indicator for bots in channels or DMs: degraded to nothing.
    },
  };
}
