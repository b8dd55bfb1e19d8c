// Slack HTTP mode: `POST /slack/<alias>/events` on the gateway's server for events and interactivity. Each request
// is verified with the signing secret (v0 HMAC over `v0:<timestamp>:<raw body>`) and answered 200 only once its
// event is handed over (in the inbox, or the press applied), within Slack's 3 s; otherwise 500, so Slack redelivers
// the event (X-Slack-Retry-Num) and a retried delivery maps to the same event id (the inbox dedupes).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  ChannelHttpRequest,
  ChannelHttpResponse,
  ChannelHttpRoute,
} from '../../src/channel-host/types.ts';
import type { Logger } from '../../src/core/logger.ts';
import {
  BAD_SIGNATURE_BODY,
  HANDOVER_FAILED_BODY,
  HTTP_HANDOVER_FAILED,
  HTTP_REQUEST_REJECTED,
  HTTP_REQUEST_SKIPPED,
  HTTP_WORK_FAILED,
  NOT_STARTED_BODY,
} from './slack-messages.ts';

/**
 * How long a request waits for its hand-over before it is answered 500: Slack counts a response later than 3 s
 * as a failure (and redelivers anyway), so the answer must leave before that with room for the network.
 */
export const HANDOVER_DEADLINE_MS = 2500;

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
  handlers: () => SlackHttpHandlers | null;
  deadlineMs?: number;
}

/**
 * Each resolves once the event is handed over (rejects when it could not be); `after` is work that may follow
 * the response (a press's ephemeral notice).
 */
export interface SlackHttpHandlers {
  event(event: unknown, retryNum?: number): Promise<void>;
  action(payload: unknown): Promise<{ after?: () => Promise<void> } | undefined>;
}

export interface SlackHttpEndpoint {
  route: ChannelHttpRoute;
  /** Waits for the work of the requests already answered (hand-overs past the deadline, notices). */
  drain(): Promise<void>;
}

export function createSlackHttpEndpoint(opts: SlackHttpEndpointOptions): SlackHttpEndpoint {
  const key = `slack.${opts.alias}`;
  const log = opts.logger;
  const pending = new Set<Promise<unknown>>();

  function track(p: Promise<unknown>): void {
    const settled = p
      .catch((err: unknown) => {
        log.warn({ channel: key, err: err instanceof Error ? err.message : String(err) }, HTTP_WORK_FAILED);
      })
      .finally(() => pending.delete(settled));
    pending.add(settled);
  }

  /** The hand-over's outcome within the deadline: `late` leaves it running (tracked for drain). */
  async function within<T>(work: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; why: string }> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), opts.deadlineMs ?? HANDOVER_DEADLINE_MS);
    });
    try {
      const first = await Promise.race([work.then((value) => ({ value })), deadline]);
      if (first !== 'late') return { ok: true, value: first.value };
      // Still running: it may yet land; Slack's redelivery of it is then dropped by the inbox dedupe.
      track(work);
      return { ok: false, why: 'no answer within the deadline' };
    } catch (err) {
      return { ok: false, why: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
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
    // 200 only once the event is in: after a 200 Slack never sends it again, after a 500 it does.
    const work: Promise<(() => Promise<void>) | undefined> =
      parsed.kind === 'event'
        ? handlers.event(parsed.event, retryNum).then(() => undefined)
        : handlers.action(parsed.payload).then((r) => r?.after);
    const outcome = await within(work);
    if (!outcome.ok) {
      log.warn(
        { channel: key, kind: parsed.kind, retry_num: retryNum, err: outcome.why },
        HTTP_HANDOVER_FAILED,
      );
      return { status: 500, body: { error: HANDOVER_FAILED_BODY } };
    }
    const after = outcome.value;
    if (after) track(Promise.resolve().then(after));
    return { status: 200 };
  }

  return {
    route: { method: 'POST', path: `/slack/${opts.alias}/events`, handle },
    async drain() {
      await Promise.allSettled([...pending]);
    },
  };
}
