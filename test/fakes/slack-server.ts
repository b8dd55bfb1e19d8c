// A protocol-level fake of Slack: the Web API (POST /api/<method>, form or JSON bodies) and Socket Mode
// (apps.connections.open → ws://…/link). Records every call; tests and benches inject events and presses.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeSlackFiles } from './slack-files.ts';
import {
  blockActions,
  eventCallback,
  FAKE_BOT_ID,
  FAKE_BOT_USER,
  FAKE_TEAM,
  type MessageEventInput,
  messageEvent,
  nextTs,
  type PressInput,
} from './slack-payloads.ts';
import { type Envelope, FakeSlackSocket } from './slack-socket.ts';

export interface SlackCall {
  method: string;
  /** Form fields or JSON body; JSON-encoded form fields (blocks…) are decoded. */
  params: Record<string, unknown>;
  token: string | undefined;
  /** What the fake answered with. */
  status: number;
  /** When the fake received it (ms since the epoch). */
  at: number;
}

/** A message the bot posted, as it stands now (chat.update changes it). */
export interface PostedMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks: unknown[];
  /** Every text/blocks this message had, oldest first. */
  versions: Array<{ text: string; blocks: unknown[] }>;
}

/** An HTTP failure, or Slack's `{ok: false, error}` answer (e.g. `invalid_blocks` for formatting it refuses). */
export type Failure =
  | { status: 500 }
  | { status: 429; retryAfterSecs: number }
  | { status: 200; error: string };

const JSON_FIELDS = new Set(['blocks', 'attachments', 'metadata', 'files']);

export class FakeSlackServer {
  readonly calls: SlackCall[] = [];
  readonly messages: PostedMessage[] = [];
  /** Messages chat.delete removed (no longer in `messages`). */
  readonly deleted: PostedMessage[] = [];
  readonly socket = new FakeSlackSocket();
  /** url_private downloads and the external upload flow (slack-files.ts). */
  readonly files = new FakeSlackFiles(
    () => `http://127.0.0.1:${this.port}/`,
    () => this.events.emit('call'),
  );
  private readonly server: Server;
  private readonly events = new EventEmitter();
  private readonly failures: Array<{ method: string | undefined; failure: Failure }> = [];
  private port = 0;

  constructor() {
    this.events.setMaxListeners(0);
    this.server = createServer((req, res) => void this.onRequest(req, res));
    this.server.on('upgrade', (req, socket, head) => {
      if (req.url?.startsWith('/link')) this.socket.handleUpgrade(req, socket, head);
      else socket.destroy();
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** The Web API root for `clientOptions.slackApiUrl` / `api_base_url`. */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api/`;
  }

  /** The next call (of `method`, or any) fails like this; queue several for several failures. */
  failNext(failure: Failure, method?: string): void {
    this.failures.push({ method, failure });
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method && c.status === 200);
  }

  /** Injects a user message (or app_mention) as an events_api envelope; returns the envelope. */
  injectMessage(input: MessageEventInput, eventId?: string): Envelope {
    return this.socket.push('events_api', eventCallback(messageEvent(input), eventId));
  }

  /** Pushes any event object inside an events_api envelope (malformed or unexpected ones included). */
  injectEvent(event: Record<string, unknown>, eventId?: string): Envelope {
    return this.socket.push('events_api', eventCallback(event, eventId));
  }

  /** A user presses button `actionId` on the bot's message `messageTs` (found among the posted ones). */
  press(
    input: Omit<PressInput, 'channel' | 'threadTs' | 'blocks' | 'text'> & { channel?: string },
  ): Envelope {
    const msg = this.messages.find((m) => m.ts === input.messageTs);
    if (!msg) throw new Error(`fake slack: no posted message ${input.messageTs}`);
    type Element = { action_id?: string; value?: string };
    const button = (msg.blocks as Array<{ elements?: Element[] }>)
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === input.actionId);
    const payload = blockActions(
      {
        ...(button?.value ? { value: button.value } : {}),
        ...input,
        channel: msg.channel,
        ...(msg.thread_ts ? { threadTs: msg.thread_ts } : {}),
        blocks: msg.blocks,
        text: msg.text,
      },
      this.apiUrl,
    );
    return this.socket.push('interactive', payload);
  }

  /** Resolves with the recorded calls once `probe` holds (checked on every call). */
  waitFor<T>(probe: () => T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = probe();
        if (value === undefined || value === false) return;
        clearTimeout(timer);
        this.events.off('call', check);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.events.off('call', check);
        reject(new Error(`fake slack: timed out waiting for ${what}`));
      }, timeoutMs);
      this.events.on('call', check);
      check();
    });
  }

  /** Waits until `count` messages were posted in `channel` (optionally in `thread`). */
  waitForMessages(
    count: number,
    channel: string,
    thread?: string,
    timeoutMs?: number,
  ): Promise<PostedMessage[]> {
    const mine = () =>
      this.messages.filter((m) => m.channel === channel && (thread === undefined || m.thread_ts === thread));
    return this.waitFor(
      () => (mine().length >= count ? mine() : undefined),
      `${count} messages in ${channel}`,
      timeoutMs,
    );
  }

  async close(): Promise<void> {
    await this.socket.close();
    this.files.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (this.files.serve(req, res, bytes)) return;
    const raw = bytes.toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const method = url.pathname.startsWith('/api/') ? url.pathname.slice(5) : url.pathname;
    const params = parseBody(raw, String(req.headers['content-type'] ?? ''));
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : (params.token as string | undefined);
    const failureAt = this.failures.findIndex((f) => f.method === undefined || f.method === method);
    const failure = failureAt >= 0 ? this.failures.splice(failureAt, 1)[0]?.failure : undefined;
    const at = Date.now();
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      this.calls.push({ method, params, token, status, at });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
      this.events.emit('call');
    };
    if (failure?.status === 429) {
      reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(failure.retryAfterSecs) });
    } else if (failure?.status === 500) {
      reply(500, { ok: false, error: 'internal_error' });
    } else if (failure?.status === 200) {
      reply(200, { ok: false, error: failure.error });
    } else {
      reply(200, this.answer(method, params, token));
    }
  }

  private answer(method: string, params: Record<string, unknown>, token: string | undefined): unknown {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://fake.slack.com/',
          team: 'fake',
          user: 'baton',
          team_id: FAKE_TEAM,
          user_id: FAKE_BOT_USER,
          bot_id: FAKE_BOT_ID,
        };
      case 'apps.connections.open':
        if (!token?.startsWith('xapp-')) return { ok: false, error: 'not_allowed_token_type' };
        return { ok: true, url: `ws://127.0.0.1:${this.port}/link?ticket=${Date.now()}` };
      case 'chat.postMessage':
        return this.post(params);
      case 'chat.update':
        return this.update(params);
      case 'chat.delete': {
        const at = this.messages.findIndex((m) => m.channel === params.channel && m.ts === params.ts);
        if (at < 0) return { ok: false, error: 'message_not_found' };
        this.deleted.push(...this.messages.splice(at, 1));
        return { ok: true, channel: params.channel, ts: params.ts };
      }
      case 'assistant.threads.setStatus':
        return { ok: true };
      case 'chat.postEphemeral':
        if (typeof params.channel !== 'string' || !params.channel)
          return { ok: false, error: 'channel_not_found' };
        if (typeof params.user !== 'string' || !params.user)
          return { ok: false, error: 'user_not_in_channel' };
        return { ok: true, message_ts: nextTs() };
      default:
        return this.files.answer(method, params) ?? { ok: false, error: 'unknown_method' };
    }
  }

  private post(params: Record<string, unknown>): unknown {
    if (typeof params.channel !== 'string' || !params.channel)
      return { ok: false, error: 'channel_not_found' };
    if (typeof params.text !== 'string' && !Array.isArray(params.blocks))
      return { ok: false, error: 'no_text' };
    const text = String(params.text ?? '');
    const blocks = Array.isArray(params.blocks) ? params.blocks : [];
    const ts = nextTs();
    const thread = typeof params.thread_ts === 'string' && params.thread_ts ? params.thread_ts : undefined;
    this.messages.push({
      channel: params.channel,
      ts,
      ...(thread ? { thread_ts: thread } : {}),
      text,
      blocks,
      versions: [{ text, blocks }],
    });
    return {
      ok: true,
      channel: params.channel,
      ts,
      message: {
        type: 'message',
        text,
        user: FAKE_BOT_USER,
        bot_id: FAKE_BOT_ID,
        ts,
        blocks,
        ...(thread ? { thread_ts: thread } : {}),
      },
    };
  }

  private update(params: Record<string, unknown>): unknown {
    const msg = this.messages.find((m) => m.channel === params.channel && m.ts === params.ts);
    if (!msg) return { ok: false, error: 'message_not_found' };
    msg.text = String(params.text ?? msg.text);
    // As Slack documents: no `blocks` keeps the old ones, an empty array removes them.
    if (Array.isArray(params.blocks)) msg.blocks = params.blocks;
    msg.versions.push({ text: msg.text, blocks: msg.blocks });
    return { ok: true, channel: msg.channel, ts: msg.ts, text: msg.text };
  }
}

function parseBody(raw: string, contentType: string): Record<string, unknown> {
  if (!raw) return {};
  if (contentType.includes('application/json')) {
    try {
      const parsed = JSON.parse(raw);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    if (!JSON_FIELDS.has(key)) {
      out[key] = value;
      continue;
    }
    try {
      out[key] = JSON.parse(value);
    } catch {
      out[key] = value;
    }
  }
  return out;
}

export async function startFakeSlack(): Promise<FakeSlackServer> {
  return new FakeSlackServer().listen();
}
