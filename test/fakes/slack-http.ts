// Slack's HTTP-mode deliveries: signed POSTs of events_api callbacks and form-encoded interactivity payloads,
// as Slack sends them to a Request URL (`x-slack-signature: v0=<HMAC-SHA256 of v0:<ts>:<raw body>>`).
import { createHmac } from 'node:crypto';

export interface SlackPostOptions {
  /** Seconds since the epoch; defaults to now. */
  timestamp?: number;
  /** Overrides the computed signature (a forged or broken one). */
  signature?: string;
  /** `x-slack-retry-num` (Slack's redelivery of an event it got no 2xx for). */
  retryNum?: number;
}

export function slackSignature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

async function post(url: string, secret: string, body: string, contentType: string, o: SlackPostOptions) {
  const ts = o.timestamp ?? Math.floor(Date.now() / 1000);
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': o.signature ?? slackSignature(secret, ts, body),
      ...(o.retryNum
        ? { 'x-slack-retry-num': String(o.retryNum), 'x-slack-retry-reason': 'http_timeout' }
        : {}),
    },
    body,
  });
  return { status: res.status, text: await res.text() };
}

/** An Events API request (event_callback, url_verification) as JSON. */
export function postSlackEvent(url: string, secret: string, payload: unknown, o: SlackPostOptions = {}) {
  return post(url, secret, JSON.stringify(payload), 'application/json', o);
}

/** An interactivity request: `payload=<json>`, form-encoded. */
export function postSlackInteraction(
  url: string,
  secret: string,
  payload: unknown,
  o: SlackPostOptions = {},
) {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  return post(url, secret, body, 'application/x-www-form-urlencoded', o);
}
