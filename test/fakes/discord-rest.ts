// REST routes of the fake Discord API (/api/v10), with Discord's validation and error shapes.

import type { UploadedFile } from './discord-files.ts';
import type { FakeDiscordServer } from './discord-server.ts';
import { snowflake, type WireMessage, wireMessage } from './discord-wire.ts';

export interface DiscordCall {
  method: string;
  /** Path under /api/v10, without the query. */
  path: string;
  query: string;
  body: unknown;
  /** The files of a multipart upload (discord.js sends payload_json + files[n]). */
  files?: UploadedFile[];
  authorization: string | undefined;
  status: number;
  /** What the fake answered (JSON), when it answered a body. */
  response?: unknown;
  at: number;
}

export interface Failure {
  status: 500 | 429;
  /** 429 only: the seconds Discord asks to wait (header `Retry-After` and body `retry_after`). */
  retryAfterSec?: number;
  global?: boolean;
  /** Which calls fail (default: any but GET /gateway/bot). */
  match?: (method: string, path: string, call: DiscordCall) => boolean;
}

/** Answers the request; `true` so every route ends in `return reply(...)`. */
export type Reply = (status: number, payload?: unknown, headers?: Record<string, string>) => true;

const MAX_CONTENT = 2000;
/** A bot's upload limit without boosts: 10 MiB per message. */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const acked = new WeakMap<FakeDiscordServer, Set<string>>();

function failWith(failure: Failure, reply: Reply): true {
  if (failure.status === 500) return reply(500, { message: '500: Internal Server Error', code: 0 });
  const sec = failure.retryAfterSec ?? 1;
  return reply(
    429,
    { message: 'You are being rate limited.', retry_after: sec, global: failure.global ?? false },
    {
      'retry-after': String(Math.ceil(sec)),
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset-after': String(sec),
      'x-ratelimit-bucket': 'fake-bucket',
      'x-ratelimit-scope': failure.global ? 'global' : 'user',
      ...(failure.global ? { 'x-ratelimit-global': 'true' } : {}),
    },
  );
}

/** Why Discord would refuse these components (rows of ≤ 5 buttons, ≤ 5 rows, label ≤ 80, custom_id ≤ 100). */
function invalidComponents(components: unknown): string | null {
  if (components === undefined) return null;
  if (!Array.isArray(components) || components.length > 5) return 'components: at most 5 action rows';
  for (const row of components as Array<{ type?: number; components?: unknown }>) {
    if (row.type !== 1 || !Array.isArray(row.components) || row.components.length > 5) {
      return 'components: an action row holds 1 to 5 components';
    }
    for (const b of row.components as Array<Record<string, unknown>>) {
      if (b.type !== 2 || typeof b.custom_id !== 'string' || b.custom_id.length > 100)
        return 'invalid button';
      if (typeof b.label !== 'string' || b.label.length > 80) return 'button label: at most 80 characters';
    }
  }
  return null;
}

/**
 * GET /channels/:id/messages?after=&limit= (1–100, default 50): the channel's messages after that id, oldest
 * first taken, answered newest first as Discord does. Only `after` paging is served.
 */
function history(fake: FakeDiscordServer, channelId: string, call: DiscordCall, reply: Reply): true {
  const q = new URLSearchParams(call.query);
  const after = q.get('after');
  const limit = Number(q.get('limit') ?? 50);
  if (!after || !/^\d+$/.test(after)) return formError(reply, 'fake discord: only ?after= paging is served');
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) return formError(reply, 'limit: 1 to 100');
  const page = [...fake.messages.values()]
    .filter((m) => m.channel_id === channelId && BigInt(m.id) > BigInt(after))
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
    .slice(0, limit)
    .reverse();
  return reply(200, page);
}

const formError = (reply: Reply, detail: string): true =>
  reply(400, { message: 'Invalid Form Body', code: 50035, errors: { detail } });

export function routeRest(
  fake: FakeDiscordServer,
  call: DiscordCall,
  reply: Reply,
  failure: Failure | undefined,
  port: number,
): true {
  if (failure) return failWith(failure, reply);
  const { method, path } = call;
  const parts = path.split('/').slice(1);
  if (parts[0] === 'interactions' && parts[3] === 'callback' && method === 'POST') {
    // Interaction callbacks carry no Authorization: the token in the path is the credential.
    const [, id = '', token] = parts;
    if (token !== `token-${id}`) return reply(404, { message: 'Unknown interaction', code: 10062 });
    const seen = acked.get(fake) ?? new Set<string>();
    acked.set(fake, seen);
    if (seen.has(id))
      return reply(400, { message: 'Interaction has already been acknowledged.', code: 40060 });
    seen.add(id);
    return reply(204);
  }
  if (parts[0] === 'webhooks' && parts.length === 3 && method === 'POST') {
    // An interaction follow-up: the interaction token in the path is the credential (no Authorization).
    if (!parts[2]?.startsWith('token-')) return reply(401, { message: 'Invalid Webhook Token', code: 50027 });
    const body = (call.body ?? {}) as { content?: unknown; flags?: unknown };
    return reply(200, {
      id: snowflake(),
      type: 0,
      channel_id: fake.textChannelId,
      content: typeof body.content === 'string' ? body.content : '',
      author: fake.bot,
      flags: typeof body.flags === 'number' ? body.flags : 0,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
      components: [],
    });
  }
  if (call.authorization !== `Bot ${fake.token}`)
    return reply(401, { message: '401: Unauthorized', code: 0 });
  if (method === 'GET' && path === '/gateway/bot') {
    return reply(200, {
      url: `ws://127.0.0.1:${port}/gateway`,
      shards: 1,
      session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
    });
  }
  if (method === 'GET' && path === '/users/@me') return reply(200, fake.bot);
  if (parts[0] !== 'channels' || !parts[1]) return reply(404, { message: '404: Not Found', code: 0 });
  const channel = fake.channels.get(parts[1]);
  if (!channel) return reply(404, { message: 'Unknown Channel', code: 10003 });
  if (method === 'GET' && parts.length === 2) return reply(200, channel);
  if (method === 'POST' && parts[2] === 'typing' && parts.length === 3) return reply(204);
  if (method === 'GET' && parts[2] === 'messages' && parts.length === 3)
    return history(fake, channel.id, call, reply);
  const body = (call.body ?? {}) as { content?: unknown; components?: unknown };
  if (parts[2] !== 'messages') return reply(404, { message: '404: Not Found', code: 0 });
  const content = typeof body.content === 'string' ? body.content : undefined;
  if (content !== undefined && content.length > MAX_CONTENT) {
    return formError(reply, `content: must be ${MAX_CONTENT} or fewer in length`);
  }
  const badComponents = invalidComponents(body.components);
  if (badComponents) return formError(reply, badComponents);
  const components = (body.components ?? []) as WireMessage['components'];
  if (method === 'POST' && parts.length === 3) {
    const files = call.files ?? [];
    if (files.reduce((n, f) => n + f.bytes.byteLength, 0) > MAX_UPLOAD_BYTES)
      return reply(413, { message: 'Request entity too large', code: 40005 });
    if (!content && components.length === 0 && files.length === 0)
      return reply(400, { message: 'Cannot send an empty message', code: 50006 });
    const id = snowflake();
    const message = wireMessage({
      id,
      channel,
      author: fake.bot,
      content: content ?? '',
      components,
      // The bot's files land on the CDN like anyone's.
      attachments: files.map((f, i) =>
        fake.cdn.attach(channel.id, `${id}${i}`, {
          filename: f.filename,
          content_type: f.contentType,
          bytes: f.bytes,
        }),
      ),
    });
    fake.messages.set(message.id, message);
    fake.gateway.echo('MESSAGE_CREATE', message); // Discord tells the bot about its own messages too
    return reply(200, message);
  }
  if (method === 'DELETE' && parts.length === 4) {
    const message = fake.messages.get(parts[3] ?? '');
    if (!message || message.channel_id !== channel.id)
      return reply(404, { message: 'Unknown Message', code: 10008 });
    fake.messages.delete(message.id);
    fake.gateway.echo('MESSAGE_DELETE', { id: message.id, channel_id: channel.id });
    return reply(204);
  }
  if (method === 'PATCH' && parts.length === 4) {
    const message = fake.messages.get(parts[3] ?? '');
    if (!message || message.channel_id !== channel.id)
      return reply(404, { message: 'Unknown Message', code: 10008 });
    if (message.author.id !== fake.bot.id) {
      return reply(403, { message: 'Cannot edit a message authored by another user', code: 50005 });
    }
    if (content !== undefined) message.content = content;
    if (body.components !== undefined) message.components = components;
    message.edited_timestamp = new Date().toISOString();
    fake.gateway.echo('MESSAGE_UPDATE', message);
    return reply(200, message);
  }
  return reply(404, { message: '404: Not Found', code: 0 });
}
