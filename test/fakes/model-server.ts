// Fake model API (OpenAI chat-completions + Anthropic messages) answering from a script.
//
// Usage:
//   const server = await startFakeModelServer();
//   server.script([{ toolCalls: [{ name: 'shell', arguments: { cmd: 'ls' } }] }, { text: 'done' }]);
//   server.script([{ status: 500 }], { model: 'primary-model' }); // a queue for one model id
//   ... point a provider at server.url (anthropic, ollama) or server.openaiBaseUrl (openai, custom) ...
//   server.requests[1].body.messages  // what the model was shown on the 2nd request
//   await server.close();
//
// Routes: POST <any prefix>/chat/completions (OpenAI format), POST <any prefix>/messages
// (Anthropic format) and POST <any prefix>/audio/transcriptions (multipart, `scriptTranscripts`), the first two each non-streaming or SSE when the body has `"stream": true`. An SSE reply is
// written event by event (`chunkDelayMs` apart when set) and can be cut short (`cutAfterChunks`) or
// end in a provider error event (`streamError`); OpenAI SSE carries usage only when the body asks for
// it (`stream_options.include_usage`), as OpenAI does. `status` and `raw` turns answer the same either
// way, so a stream request meets the same HTTP error or garbage body.
// Which turn answers: the `respond()` function if it returns one, else the next turn queued for
// the request's `model`, else the next turn of the default queue. With nothing left the server
// answers HTTP 500 `fake model server: no scripted turn ...`, so a missing turn is visible.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  anthropicJson,
  anthropicSse,
  defaultErrorBody,
  openaiJson,
  openaiSse,
  type SseEvent,
  type WireApi,
} from './model-wire.ts';
import {
  createTranscriptionRoute,
  type RecordedTranscription,
  type ScriptedTranscript,
} from './transcription-route.ts';

export interface ScriptedToolCall {
  name: string;
  /** An object is JSON-encoded; a string is sent verbatim (use it for malformed JSON). */
  arguments: unknown;
  id?: string;
}

/** One reply. Fields combine: `{ delayMs: 5000, text: 'late' }`, `{ status: 503, body: 'down' }`. */
export interface ScriptedTurn {
  text?: string;
  /** The text as these separate stream deltas (a non-streaming reply carries them joined); wins over `text`. */
  textChunks?: string[];
  /** Between the SSE events of a streamed reply, so a test can watch the answer grow. */
  chunkDelayMs?: number;
  /** Destroys the connection once this many text chunks were sent (no finish event); a JSON reply is cut after its headers. */
  cutAfterChunks?: number;
  /** A streamed reply ends with this provider error event after its text, instead of finishing. */
  streamError?: { type: string; message: string };
  toolCalls?: ScriptedToolCall[];
  usage?: { inputTokens: number; outputTokens: number };
  /** An HTTP error status; the reply is `body` (string verbatim, else JSON) or the API's error envelope. */
  status?: number;
  body?: unknown;
  /** Sent verbatim as an `application/json` body with status 200 (or `status`): garbage replies. */
  raw?: string;
  /** Wait this long before replying (ends early if the client disconnects). */
  delayMs?: number;
  /** Reply only once this settles (a test holds a run mid-request, then lets it go; ends early like delayMs). */
  until?: Promise<unknown>;
  /** A signed Anthropic thinking block before the text (Anthropic replies, streamed or not). */
  thinking?: { text: string; signature: string };
}

export interface RecordedBody {
  model?: string;
  stream?: boolean;
  system?: unknown;
  messages?: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  temperature?: number;
  max_tokens?: number;
  [key: string]: unknown;
}

export interface RecordedRequest {
  api: WireApi;
  path: string;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: RecordedBody;
  /** Set when the client closed the connection before the reply was sent (an aborted request). */
  clientClosed?: boolean;
}

export type Responder = (req: RecordedRequest) => ScriptedTurn | undefined;

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>`: the uri for `anthropic` and `ollama` entries. */
  readonly url: string;
  /** `<url>/v1`: the uri for `openai`, `openrouter` and `custom` entries. */
  readonly openaiBaseUrl: string;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Appends turns to the queue of `model` (or to the default queue). */
  script(turns: ScriptedTurn[], opts?: { model?: string }): void;
  /** Answers dynamically; return undefined to fall back to the queues. */
  respond(responder: Responder | undefined): void;
  /** Resolves once at least `count` requests have arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Every `/audio/transcriptions` request, in arrival order. */
  readonly transcriptions: RecordedTranscription[];
  /** Queues the answers of the next transcription requests (none left: HTTP 500). */
  scriptTranscripts(items: ScriptedTranscript[]): void;
  /** Clears queues, responder and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseBody(text: string): RecordedBody {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : {};
  } catch {
    return { unparseable: text };
  }
}

/** Waits `ms` unless the client goes away first; returns false when it did. */
function delay(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.on('close', onClose);
  });
}

/** Waits for `gate` unless the client goes away first; returns false when it did. */
function held(gate: Promise<unknown>, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    res.on('close', () => resolve(false));
    gate.then(
      () => resolve(true),
      () => resolve(true),
    );
  });
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': contentType });
  res.end(body);
}

/** Headers, then the connection dropped: a reply cut short. */
function cut(res: ServerResponse, contentType: string): void {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': contentType });
  res.flushHeaders();
  res.socket?.destroy();
}

/** Writes the events one by one; stops when the client goes away. */
async function sendSse(res: ServerResponse, events: SseEvent[], turn: ScriptedTurn): Promise<void> {
  if (res.destroyed) return;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.flushHeaders();
  let textChunks = 0;
  for (const [i, event] of events.entries()) {
    if (turn.cutAfterChunks !== undefined && textChunks >= turn.cutAfterChunks) {
      res.socket?.destroy();
      return;
    }
    if (i > 0 && turn.chunkDelayMs !== undefined && !(await delay(turn.chunkDelayMs, res))) return;
    if (res.destroyed) return;
    await new Promise<void>((resolve) => res.write(event.frame, () => resolve()));
    if (event.textChunk) textChunks += 1;
  }
  res.end();
}

/** Answers `turn`: an error or garbage body, a JSON reply, or an SSE stream. */
async function reply(
  res: ServerResponse,
  api: WireApi,
  turn: ScriptedTurn,
  body: RecordedBody,
): Promise<void> {
  const model = body.model ?? 'fake-model';
  if (turn.raw !== undefined) return send(res, turn.status ?? 200, 'application/json', turn.raw);
  if (turn.status !== undefined && turn.status >= 400) {
    const payload = turn.body ?? defaultErrorBody(api, turn.status);
    return send(
      res,
      turn.status,
      'application/json',
      typeof payload === 'string' ? payload : JSON.stringify(payload),
    );
  }
  if (body.stream === true) {
    const options = body.stream_options as { include_usage?: boolean } | undefined;
    const events =
      api === 'openai' ? openaiSse(turn, model, options?.include_usage === true) : anthropicSse(turn, model);
    return sendSse(res, events, turn);
  }
  if (turn.cutAfterChunks !== undefined) return cut(res, 'application/json');
  const json = api === 'openai' ? openaiJson(turn, model) : anthropicJson(turn, model);
  return send(res, 200, 'application/json', JSON.stringify(json));
}

export async function startFakeModelServer(): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const queues = new Map<string, ScriptedTurn[]>();
  const DEFAULT = '\u0000default';
  let responder: Responder | undefined;
  let waiters: Array<() => void> = [];
  const audio = createTranscriptionRoute();

  const nextTurn = (rec: RecordedRequest): ScriptedTurn | undefined => {
    const dynamic = responder?.(rec);
    if (dynamic !== undefined) return dynamic;
    const own = rec.body.model === undefined ? undefined : queues.get(rec.body.model);
    if (own !== undefined && own.length > 0) return own.shift();
    return queues.get(DEFAULT)?.shift();
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const api: WireApi | undefined = path.endsWith('/chat/completions')
        ? 'openai'
        : path.endsWith('/messages')
          ? 'anthropic'
          : undefined;
      const raw = await readBody(req);
      if (req.method === 'POST' && path.endsWith('/audio/transcriptions')) return audio.handle(req, raw, res);
      const text = raw.toString('utf8');
      if (req.method !== 'POST' || api === undefined) {
        send(res, 404, 'text/plain', 'not found');
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const rec: RecordedRequest = { api, path, headers, body: parseBody(text) };
      requests.push(rec);
      res.on('close', () => {
        if (!res.writableFinished) rec.clientClosed = true;
      });
      for (const w of waiters) w();
      const turn = nextTurn(rec) ?? {
        status: 500,
        body: {
          error: { message: `fake model server: no scripted turn for model ${rec.body.model ?? '(none)'}` },
        },
      };
      if (turn.delayMs !== undefined && !(await delay(turn.delayMs, res))) return;
      if (turn.until !== undefined && !(await held(turn.until, res))) return;
      await reply(res, api, turn, rec.body);
    })().catch((err: unknown) => send(res, 599, 'text/plain', `fake model server crashed: ${String(err)}`));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    transcriptions: audio.transcriptions,
    scriptTranscripts: (items) => audio.scriptTranscripts(items),
    script(turns, opts) {
      const key = opts?.model ?? DEFAULT;
      queues.set(key, [...(queues.get(key) ?? []), ...turns]);
    },
    respond(fn) {
      responder = fn;
    },
    waitForRequests(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== check);
          reject(
            new Error(`fake model server: ${requests.length} of ${count} requests after ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.push(check);
        check();
      });
    },
    reset() {
      queues.clear();
      responder = undefined;
      requests.length = 0;
      audio.reset();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
