// Telegram's side of webhook mode: an Update POSTed as JSON to the webhook URL, with the secret_token given to
// setWebhook in `X-Telegram-Bot-Api-Secret-Token` (omitted when `secret` is undefined).
import type { ChannelHttpRequest } from '../../src/channel-host/types.ts';
import { chatFor, mentionEntities, now, type TgUser, user } from './telegram-wire.ts';

let nextUpdateId = 700_000;
let nextMessageId = 90_000;

/** A new update id (distinct from the fake server's own, which start at 100). */
export const newUpdateId = () => nextUpdateId++;

/** `{ update_id, message }` for a text message in `chat` (positive: private, negative: group). */
export function messageUpdate(o: { chat: number; from: number | TgUser; text: string; updateId?: number }) {
  const from = typeof o.from === 'number' ? user(o.from) : o.from;
  const entities = mentionEntities(o.text);
  return {
    update_id: o.updateId ?? newUpdateId(),
    message: {
      message_id: nextMessageId++,
      date: now(),
      chat: chatFor(o.chat),
      from,
      text: o.text,
      ...(entities.length ? { entities } : {}),
    },
  };
}

const headersFor = (secret: string | undefined): Record<string, string> => ({
  'content-type': 'application/json',
  ...(secret === undefined ? {} : { 'x-telegram-bot-api-secret-token': secret }),
});

/** POSTs the update over HTTP, as Telegram does. */
export async function postTelegramUpdate(url: string, secret: string | undefined, update: unknown) {
  const res = await fetch(url, { method: 'POST', headers: headersFor(secret), body: JSON.stringify(update) });
  return { status: res.status, text: await res.text() };
}

/** The same request as a channel route sees it (lower-cased headers, raw body), for adapter-level tests. */
export function webhookRequest(secret: string | undefined, update: unknown): ChannelHttpRequest {
  return { headers: headersFor(secret), body: Buffer.from(JSON.stringify(update)) };
}
