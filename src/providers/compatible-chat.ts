// baton's own client for streamed OpenAI-compatible chat completions (the custom, openrouter and ollama
// providers). It sends what @ai-sdk/openai-compatible 2.x sent and turns the reply into the same stream parts
// and errors, over Node's http with a plain event-stream parser instead of fetch and four web streams: the
// SDK's doStream cost 844–961 µs of CPU per call against about 400 for a bare request (README "Performance").
// compatible-chat.test.ts runs both on the same wire and compares them.
import type { IncomingMessage } from 'node:http';
import { APICallError, JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { secureJsonParse } from '@ai-sdk/provider-utils';
import { createParser } from 'eventsource-parser';
import {
  decodedBody,
  isHttpUrl,
  type NodeRequest,
  readBodyText,
  sendRequest,
  watchBody,
} from '../core/node-http.ts';
import { type ApiError, checkApiError, checkChunk } from './compatible-chunk.ts';
import { chatRequestBody } from './compatible-messages.ts';
import { chunkParts } from './compatible-stream.ts';
import { PartQueue, type PartReader } from './part-reader.ts';
import { type ChatModel, isEmptyCredential } from './sdk-model.ts';

export interface CompatibleChatSettings {
  /** The API base, `/chat/completions` is appended (`…/v1`). */
  baseURL: string;
  /** Sent as `Authorization: Bearer`; empty sends none. */
  apiKey: string;
  headers: Record<string, string> | undefined;
  /** The provider entry's `<type>.<alias>`; its type names the provider options key, as in the SDK. */
  name: string;
  modelId: string;
  /** A silent server fails the request after this long (default 300 s, as fetch's). */
  idleTimeoutMs?: number;
}

const USER_AGENT = `baton runtime/node.js/${process.version}`;

/** fetch (undici) gave up on a silent server after 300 s, for the headers and between body chunks alike. */
const IDLE_TIMEOUT_MS = 300_000;

/** fetch's error for an aborted request, so an abort surfaces as it did through the SDK. */
const abortError = () => new DOMException('This operation was aborted', 'AbortError');

function requestHeaders(s: CompatibleChatSettings): Record<string, string> {
  const headers: Record<string, string> = {
    accept: '*/*',
    'accept-encoding': 'gzip, deflate, br',
    'content-type': 'application/json',
  };
  const configured: Record<string, string> = {
    ...(s.apiKey ? { Authorization: `Bearer ${s.apiKey}` } : {}),
    ...s.headers,
  };
  for (const [k, v] of Object.entries(configured)) headers[k.toLowerCase()] = v;
  for (const name of Object.keys(headers)) if (isEmptyCredential(name, headers[name])) delete headers[name];
  headers['user-agent'] = [headers['user-agent'], USER_AGENT].filter(Boolean).join(' ');
  return headers;
}

const responseHeadersOf = (res: IncomingMessage): Record<string, string> =>
  Object.fromEntries(
    Object.entries(res.headers).flatMap(([k, v]) =>
      v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]],
    ),
  );

const isAbort = (err: unknown): boolean => err instanceof Error && err.name === 'AbortError';

/** The socket failures the SDK marked retryable (its handleFetchError), looked for along the cause chain. */
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE']);
function isNetworkError(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const { code } = e as { code?: unknown };
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  }
  return false;
}

/** An error reply's body is kept to this size: its message is at the start, and only an excerpt is logged. */
const MAX_ERROR_BODY_BYTES = 1 << 20;

/** The API's error reply as the SDK's JSON error handler made it: the error's message, else the status text. */
async function failedResponse(
  res: IncomingMessage,
  request: NodeRequest,
  url: string,
  requestBodyValues: unknown,
): Promise<APICallError> {
  const statusCode = res.statusCode ?? 0;
  const responseHeaders = responseHeadersOf(res);
  let responseBody: string;
  try {
    responseBody = await readBodyText(res, { maxBytes: MAX_ERROR_BODY_BYTES, destroy: request.destroy });
  } catch (cause) {
    if (isAbort(cause)) throw cause;
    const message = 'Failed to process error response';
    return new APICallError({ message, cause, statusCode, url, responseHeaders, requestBodyValues });
  } finally {
    request.release();
  }
  let data: ApiError | undefined;
  if (responseBody.trim() !== '') {
    try {
      data = checkApiError(secureJsonParse(responseBody));
    } catch {
      // not JSON: the status text stands
    }
  }
  return new APICallError({
    message: data?.error.message ?? res.statusMessage ?? '',
    url,
    requestBodyValues,
    statusCode,
    responseHeaders,
    responseBody,
    ...(data === undefined ? {} : { data }),
  });
}

export function createCompatibleChat(settings: CompatibleChatSettings): ChatModel {
  const base = settings.baseURL.replace(/\/$/, '');
  const headers = requestHeaders(settings);
  const providerKey = settings.name.split('.')[0]?.trim() ?? '';
  return {
    async stream(options) {
      const target = new URL(`${base}/chat/completions`);
      const url = target.toString();
      const values = chatRequestBody(settings.modelId, options);
      const signal = options.abortSignal;
      if (signal?.aborted) throw signal.reason;
      if (!isHttpUrl(target)) throw new TypeError(`unsupported model API URL scheme ${target.protocol}`);
      const request = sendRequest(target, {
        method: 'POST',
        headers,
        body: JSON.stringify(values),
        signal,
        idleTimeoutMs: settings.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
        abortError: () => (signal?.reason instanceof Error ? signal.reason : abortError()),
      });
      let res: IncomingMessage;
      try {
        res = await request.response;
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        const message = `Cannot connect to API: ${cause instanceof Error ? cause.message : String(cause)}`;
        throw new APICallError({ message, cause, url, requestBodyValues: values, isRetryable: true });
      }
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 299) throw await failedResponse(res, request, url, values);
      return streamParts(res, request, {
        url,
        values,
        signal,
        metadataKey: providerKey,
        responseHeaders: responseHeadersOf(res),
      });
    },
  };
}

interface StreamContext {
  url: string;
  values: unknown;
  signal: AbortSignal | undefined;
  metadataKey: string;
  responseHeaders: Record<string, string>;
}

/** The event stream's parts, queued as they arrive; a read error ends it as "Failed to process successful response". */
function streamParts(res: IncomingMessage, request: NodeRequest, ctx: StreamContext): PartReader {
  let stopped = false;
  const queue = new PartQueue(() => {
    stopped = true;
    request.release();
    if (!res.complete) request.destroy(abortError());
  });
  // The SDK's warnings were about settings baton never sets (topK, response formats, provider tools).
  queue.push({ type: 'stream-start', warnings: [] });
  const parts = chunkParts((p) => queue.push(p), ctx.metadataKey);
  const fail = (err: unknown): void => {
    request.release();
    if (!res.complete) request.destroy();
    queue.fail(err);
  };
  const onData = (data: string): void => {
    if (data === '[DONE]') return;
    let value: unknown;
    try {
      value = secureJsonParse(data);
    } catch (cause) {
      parts.invalid(JSONParseError.isInstance(cause) ? cause : new JSONParseError({ text: data, cause }));
      return;
    }
    const checked = checkChunk(value);
    if (checked.ok) parts.chunk(checked.chunk);
    else parts.invalid(new TypeValidationError({ value, cause: new Error(checked.problem) }));
  };
  const parser = createParser({
    onEvent: (event) => {
      if (stopped) return;
      try {
        onData(event.data);
      } catch (err) {
        fail(err); // the tool-call tracker's errors end the stream, as a throwing transform did
      }
    },
  });
  const body = decodedBody(res);
  const decoder = new TextDecoder();
  body.on('data', (bytes: Buffer) => {
    if (!stopped) parser.feed(decoder.decode(bytes, { stream: true }));
  });
  watchBody(
    res,
    body,
    () => {
      request.release();
      if (stopped) return;
      const rest = decoder.decode();
      if (rest !== '') parser.feed(rest);
      try {
        parts.end();
        queue.end();
      } catch (err) {
        queue.fail(err);
      }
    },
    (cause) => {
      request.release();
      if (stopped) return;
      if (ctx.signal?.aborted) return queue.fail(ctx.signal.reason);
      if (isAbort(cause)) return queue.fail(cause);
      const { url, values, responseHeaders } = ctx;
      queue.fail(
        new APICallError({
          message: 'Failed to process successful response',
          cause,
          statusCode: res.statusCode,
          url,
          responseHeaders,
          requestBodyValues: values,
          isRetryable: isNetworkError(cause),
        }),
      );
    },
  );
  return queue;
}
