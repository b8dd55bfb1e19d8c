// Slack HTTP mode: `POST /slack/<alias>/events` on the gateway's server for events and interactivity. Each request
// is verified with the signing secret (v0 HMAC over `v0:<timestamp>:<raw body>`), acknowledged at once (Slack
// gives 3 s), and handed to the adapter afterwards; a retried delivery maps to the same event id (the inbox dedupes).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  ChannelHttpRequest,
  ChannelHttpResponse,
  ChannelHttpRoute,
} from '../../src/channel-host/types.ts';
import type { Logger } from '../../src/core/logger.ts';
import {
  BAD_SIGNATURE_BODY,
  HTTP_REQUEST_REJECTED,
  HTTP_REQUEST_SKIPPED,
  HTTP_WORK_FAILED,
  NOT_STARTED_BODY,
} from './slack-messages.ts';

/** Slack's own bound on a request's age (either direction: clocks drift both ways). */
export const MAX_TIMESTAMP_SKEW_SECS = 5 * 60;

export type Verdict = 'ok' | 'missing_headers' | 'stale' | 'bad_signature';

export function verifySlackSignature(
  secret: string,
  headers: ChannelHttpRequest['headers'],
  body: Buffer,
  nowMs = Date.now(),
): Verdict {
  const ts = headers['x-slack-request-timestamp'];
  const sig = headers['x-slack-signature'];
  if (!ts || !sig || !/^\d{1,12}$/.test(ts)) return 'missing_headers';
  if (Math.abs(nowMs / 1000 - Number(ts)) > MAX_TIMESTAMP_SKEW_SECS) return 'stale';
  const expected = Buffer.from(
    `v0=${createHmac('sha256', secret).update(`v0:${ts}:`).update(body).digest('hex')}`,
  );
  const given = Buffer.from(sig);
  // Lengths are public (a fixed-size hex digest); the bytes are compared in constant time.
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'bad_signature';
}

export type SlackRequest =
  | { kind: 'challenge'; challenge: string }
  | { kind: 'event'; event: unknown }
  | { kind: 'action'; payload: unknown }
  | { kind: 'skip'; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Allowlist: the URL check, message/app_mention callbacks and block_actions; everything else is acked and skipped. */
export function parseSlackRequest(contentType: string | undefined, body: Buffer): SlackRequest {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const text = body.toString('utf8');
  let data: unknown;
  if (type === 'application/json') data = parseJson(text);
  else if (type === 'application/x-www-form-urlencoded') {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) return { kind: 'skip', reason: 'form request without payload (slash command?)' };
    data = parseJson(payload);
  } else return { kind: 'skip', reason: `content type ${type.slice(0, 60) || 'none'}` };
  if (!isObject(data)) return { kind: 'skip', reason: 'body is not a JSON object' };
  if (data.type === 'url_verification' && typeof data.challenge === 'string')
    return { kind: 'challenge', challenge: data.challenge };
  if (data.type === 'event_callback' && isObject(data.event)) {
    const t = data.event.type;
    if (t === 'message' || t === 'app_mention') return { kind: 'event', event: data.event };
    return { kind: 'skip', reason: `event ${String(t).slice(0, 40)}` };
  }
  if (data.type === 'block_actions') return { kind: 'action', payload: data };
  return { kind: 'skip', reason: `request type ${String(data.type).slice(0, 40)}` };
}

export interface SlackHttpEndpointOptions {
  alias: string;
  signingSecret: string;
  logger: Logger;
  /** Null until the adapter has started (requests then get a 503, and Slack retries). */
  handlers: () => {
    event(event: unknown, retryNum?: number): Promise<void>;
    action(payload: unknown): Promise<void>;
  } | null;
}

export interface SlackHttpEndpoint {
  route: ChannelHttpRoute;
  /** Waits for the work of the requests already acknowledged. */
  drain(): Promise<void>;
}

export function createSlackHttpEndpoint(opts: SlackHttpEndpointOptions): SlackHttpEndpoint {
  const key = `slack.${opts.alias}`;
  const log = opts.logger;
  const pending = new Set<Promise<void>>();

  function later(work: () => Promise<void>): void {
    const p = Promise.resolve()
      .then(work)
      .catch((err: unknown) => {
        log.warn({ channel: key, err: err instanceof Error ? err.message : String(err) }, HTTP_WORK_FAILED);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  async function handle(req: ChannelHttpRequest): Promise<ChannelHttpResponse> {
    const verdict = verifySlackSignature(opts.signingSecret, req.headers, req.body);
    if (verdict !== 'ok') {
      log.warn({ channel: key, reason: verdict }, HTTP_REQUEST_REJECTED);
      return { status: 401, body: { error: BAD_SIGNATURE_BODY } };
    }
    const parsed = parseSlackRequest(req.headers['content-type'], req.body);
    if (parsed.kind === 'challenge') return { status: 200, body: { challenge: parsed.challenge } };
    if (parsed.kind === 'skip') {
      log.debug({ channel: key, reason: parsed.reason }, HTTP_REQUEST_SKIPPED);
      return { status: 200 };
    }
    const handlers = opts.handlers();
    if (!handlers) return { status: 503, body: { error: NOT_STARTED_BODY } };
    const retryNum = Number(req.headers['x-slack-retry-num']) || undefined;
    // Ack first: the response leaves now, the event reaches the inbox right after.
    if (parsed.kind === 'event') later(() => handlers.event(parsed.event, retryNum));
    else later(() => handlers.action(parsed.payload));
    return { status: 200 };
  }

  return {
    route: { method: 'POST', path: `/slack/${opts.alias}/events`, handle },
    async drain() {
      await Promise.allSettled([...pending]);
    },
  };
}
