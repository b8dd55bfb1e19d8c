// Fake Discord (REST /api/v10 + gateway WebSocket) for discord.js, recording every call.
//
// Usage:
//   const discord = await startFakeDiscordServer();
//   ... new Client({ rest: { api: discord.apiUrl } }).login(discord.token) ...
//   discord.injectMessage({ channelId: discord.textChannelId, content: 'hi' });
//   const [reply] = await discord.waitForSent(1, { channelId: discord.textChannelId });
//   discord.pressButton({ messageId: reply.id, customId: 'approve' });
//   discord.failNext({ status: 429, retryAfterSec: 1 });   // or { status: 500 }
//   discord.gateway.drop({ replayAfterSeq: n });           // cut the socket; the RESUME replays after seq n
//   await discord.close();
//
// Chats: one guild with a text channel and a public thread under it; DM channels appear when a DM is injected.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FakeDiscordCdn,
  type InjectAttachment,
  readRequestBody,
  type UploadedFile,
} from './discord-files.ts';
import { FakeDiscordGateway } from './discord-gateway.ts';

export type { DiscordCall, Failure } from './discord-rest.ts';

import { type DiscordCall, type Failure, routeRest } from './discord-rest.ts';
import {
  snowflake,
  type WireChannel,
  type WireMessage,
  type WireUser,
  wireButtonInteraction,
  wireGuild,
  wireMessage,
  wireUser,
} from './discord-wire.ts';

export interface InjectMessage {
  /** Guild text channel, thread or DM channel id (default: the text channel); `dmUserId` makes a DM. */
  channelId?: string;
  dmUserId?: string;
  content: string;
  authorId?: string;
  username?: string;
  bot?: boolean;
  /** Mention the bot: `<@id>` in front of the content and the bot in `mentions`. */
  mentionBot?: boolean;
  /** A message id (sent by the bot or injected) this one replies to. */
  replyTo?: string;
  /** Files, served by the fake's CDN (see discord-files.ts). */
  attachments?: InjectAttachment[];
  stickers?: Array<{ id: string; name: string }>;
  /** Message type (0 default, 7 member join, 19 reply…). */
  type?: number;
  id?: string;
}

export interface FakeDiscordOptions {
  token?: string;
  heartbeatIntervalMs?: number;
}

export class FakeDiscordServer {
  readonly token: string;
  readonly bot: WireUser = wireUser(snowflake(), 'baton-bot', true);
  readonly applicationId = this.bot.id;
  readonly guildId = snowflake();
  readonly textChannelId = snowflake();
  readonly threadId = snowflake();
  readonly calls: DiscordCall[] = [];
  /** Messages by id: the bot's (sent through REST, edits applied) and injected ones. */
  readonly messages = new Map<string, WireMessage>();
  readonly channels = new Map<string, WireChannel>();
  readonly gateway: FakeDiscordGateway;
  /** Attachment files (inbound ones registered by injectMessage, the bot's uploads), at Discord-like URLs. */
  readonly cdn = new FakeDiscordCdn(() => `http://127.0.0.1:${this.port}`);
  private readonly server: Server;
  private readonly changes = new EventEmitter();
  private failures: Array<Failure & { left: number }> = [];
  private port = 0;

  private constructor(opts: FakeDiscordOptions) {
    this.token = opts.token ?? 'fake-discord-token';
    this.changes.setMaxListeners(0);
    this.channels.set(this.textChannelId, {
      id: this.textChannelId,
      type: 0,
      guild_id: this.guildId,
      name: 'general',
    });
    this.channels.set(this.threadId, {
      id: this.threadId,
      type: 11,
      guild_id: this.guildId,
      name: 'a thread',
      parent_id: this.textChannelId,
    });
    this.server = createServer((req, res) => this.onRequest(req, res));
    this.gateway = new FakeDiscordGateway({
      token: this.token,
      path: '/gateway',
      heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 30_000,
      url: () => `ws://127.0.0.1:${this.port}/gateway`,
      ready: () => ({
        user: this.bot,
        guilds: [{ id: this.guildId, unavailable: true }],
        application: { id: this.applicationId, flags: 0 },
      }),
      guilds: () => [
        wireGuild(
          this.guildId,
          [...this.channels.values()].filter((c) => c.guild_id),
        ),
      ],
      onEvent: () => this.changes.emit('change'),
    });
    this.gateway.attach(this.server);
  }

  static async start(opts: FakeDiscordOptions = {}): Promise<FakeDiscordServer> {
    const fake = new FakeDiscordServer(opts);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** discord.js's `rest.api` (and baton's `api_base_url`). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  /** Messages the bot created (POST /channels/:id/messages that succeeded), oldest first. */
  get sent(): WireMessage[] {
    return this.succeeded('POST', /^\/channels\/\d+\/messages$/).map((c) => {
      const created = c.response as WireMessage;
      return this.messages.get(created.id) ?? created;
    });
  }

  /** Edits (PATCH of a message) that succeeded: the request bodies, with the message id. */
  get edits(): Array<{ messageId: string; body: Record<string, unknown> }> {
    return this.succeeded('PATCH', /^\/channels\/\d+\/messages\/\d+$/).map((c) => ({
      messageId: c.path.split('/').at(-1) ?? '',
      body: c.body as Record<string, unknown>,
    }));
  }

  /** Channel ids that got a typing indicator, one per call. */
  get typings(): string[] {
    return this.succeeded('POST', /^\/channels\/\d+\/typing$/).map((c) => c.path.split('/')[2] ?? '');
  }

  /** Interaction callbacks (acks): interaction id and the callback type (6 = deferred update). */
  get interactionCallbacks(): Array<{ interactionId: string; type: number }> {
    return this.succeeded('POST', /^\/interactions\/\d+\/[^/]+\/callback$/).map((c) => ({
      interactionId: c.path.split('/')[2] ?? '',
      type: (c.body as { type: number }).type,
    }));
  }

  /** Makes the next `count` matching REST calls fail. */
  failNext(failure: Failure, count = 1): void {
    this.failures.push({ ...failure, left: count });
  }

  /** A user's message, dispatched as MESSAGE_CREATE; returns the message. */
  injectMessage(m: InjectMessage): WireMessage {
    const author = wireUser(m.authorId ?? '100000000000000001', m.username ?? 'alice', m.bot ?? false);
    const channel = m.dmUserId ? this.dmChannel(m.dmUserId) : this.channel(m.channelId ?? this.textChannelId);
    const replyTo = m.replyTo ? this.messages.get(m.replyTo) : undefined;
    if (m.replyTo && !replyTo) throw new Error(`fake discord: no message ${m.replyTo} to reply to`);
    const id = m.id ?? snowflake();
    const attachments = (m.attachments ?? []).map((a, i) => this.cdn.attach(channel.id, `${id}${i}`, a));
    const message = wireMessage({
      id,
      channel,
      author,
      content: m.mentionBot ? `<@${this.bot.id}> ${m.content}` : m.content,
      mentions: m.mentionBot ? [this.bot] : [],
      attachments,
      ...(m.attachments?.some((a) => a.voice) ? { flags: 8192 } : {}),
      ...(m.stickers ? { stickers: m.stickers } : {}),
      ...(replyTo ? { replyTo } : {}),
      ...(m.type !== undefined ? { type: m.type } : {}),
    });
    this.messages.set(message.id, message);
    this.gateway.dispatch('MESSAGE_CREATE', message);
    return message;
  }

  /** Dispatches a message again, as Discord may (same id, same attachment URLs). */
  redispatch(messageId: string): void {
    const message = this.messages.get(messageId);
    if (!message) throw new Error(`fake discord: no message ${messageId}`);
    this.gateway.dispatch('MESSAGE_CREATE', message);
  }

  /** The bot's messages that carried files (multipart POSTs that succeeded), oldest first. */
  get sentFiles(): Array<{ message: WireMessage; content: string; files: UploadedFile[] }> {
    return this.succeeded('POST', /^\/channels\/\d+\/messages$/)
      .filter((c) => c.files?.length)
      .map((c) => {
        const message = c.response as WireMessage;
        return { message, content: message.content, files: c.files ?? [] };
      });
  }

  /** A user presses a button of one of the bot's messages; returns the interaction id. */
  pressButton(p: { messageId: string; customId: string; userId?: string; username?: string }): string {
    const message = this.messages.get(p.messageId);
    const buttons = message?.components.flatMap((row) => row.components) ?? [];
    if (!message || !buttons.some((b) => b.custom_id === p.customId)) {
      throw new Error(`fake discord: message ${p.messageId} has no button ${p.customId}`);
    }
    const id = snowflake();
    this.gateway.dispatch(
      'INTERACTION_CREATE',
      wireButtonInteraction({
        id,
        token: `token-${id}`,
        applicationId: this.applicationId,
        customId: p.customId,
        user: wireUser(p.userId ?? '100000000000000001', p.username ?? 'alice'),
        channel: this.channel(message.channel_id),
        message,
      }),
    );
    return id;
  }

  /** Resolves with `check()`'s first non-undefined value, re-checked on every call and gateway event. */
  waitFor<T>(check: () => T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const onChange = () => {
        const value = check();
        if (value === undefined) return;
        this.changes.off('change', onChange);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.changes.off('change', onChange);
        reject(new Error(`fake discord: timed out waiting for ${what}`));
      }, timeoutMs);
      this.changes.on('change', onChange);
      onChange();
    });
  }

  /** The bot's first `count` messages (in `channelId` when given). */
  waitForSent(count: number, opts: { channelId?: string; timeoutMs?: number } = {}): Promise<WireMessage[]> {
    return this.waitFor(
      () => {
        const sent = this.sent.filter((m) => !opts.channelId || m.channel_id === opts.channelId);
        return sent.length >= count ? sent : undefined;
      },
      `${count} sent messages${opts.channelId ? ` in ${opts.channelId}` : ''}`,
      opts.timeoutMs,
    );
  }

  /** Resolves once a client has identified or resumed `count` times in total. */
  waitForSessions(kind: 'identify' | 'resume', count: number): Promise<void> {
    return this.waitFor(
      () => (this.gateway.events.filter((e) => e.kind === kind).length >= count ? true : undefined),
      `${count} ${kind}`,
    ).then(() => undefined);
  }

  async close(): Promise<void> {
    this.cdn.close();
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private succeeded(method: string, path: RegExp): DiscordCall[] {
    return this.calls.filter((c) => c.method === method && path.test(c.path) && c.status < 300);
  }

  private channel(id: string): WireChannel {
    const channel = this.channels.get(id);
    if (!channel) throw new Error(`fake discord: no channel ${id}`);
    return channel;
  }

  private dmChannel(userId: string): WireChannel {
    const existing = [...this.channels.values()].find((c) => c.type === 1 && c.name === `dm-${userId}`);
    if (existing) return existing;
    const channel = { id: snowflake(), type: 1, name: `dm-${userId}` };
    this.channels.set(channel.id, channel);
    return channel;
  }

  private takeFailure(call: DiscordCall): Failure | undefined {
    const { method, path } = call;
    const failure = this.failures.find((f) =>
      f.match ? f.match(method, path, call) : path !== '/gateway/bot',
    );
    if (!failure) return undefined;
    if (--failure.left <= 0) this.failures = this.failures.filter((f) => f !== failure);
    return failure;
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    if (this.cdn.handle(req, res, url.pathname)) {
      this.changes.emit('change');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void readRequestBody(Buffer.concat(chunks), req.headers['content-type'] ?? '').then(
        ({ body, files }) => {
          const path = url.pathname.replace(/^\/api\/v10/, '');
          const call: DiscordCall = {
            method: req.method ?? 'GET',
            path,
            query: url.search,
            body,
            ...(files ? { files } : {}),
            authorization: req.headers.authorization,
            status: 0,
            at: Date.now(),
          };
          const reply = (status: number, payload?: unknown, headers: Record<string, string> = {}): true => {
            call.status = status;
            if (payload !== undefined) call.response = payload;
            this.calls.push(call);
            // No content-type on an empty answer: discord.js parses any application/json body.
            res.writeHead(
              status,
              payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
            );
            res.end(payload === undefined ? undefined : JSON.stringify(payload));
            this.changes.emit('change');
            return true;
          };
          routeRest(this, call, reply, this.takeFailure(call), this.port);
        },
      );
    });
  }
}

export const startFakeDiscordServer = (opts?: FakeDiscordOptions) => FakeDiscordServer.start(opts);
