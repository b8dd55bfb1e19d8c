// One chat-completions stream chunk checked against the shape @ai-sdk/openai-compatible 2.x accepted (its zod
// chunk schema, written out by hand: zod on every chunk was a good part of a streamed call's CPU). A chunk that
// fails is an error part, as the SDK's was.

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const nullish = (v: unknown): v is null | undefined => v === null || v === undefined;
const optString = (v: unknown): boolean => nullish(v) || typeof v === 'string';
const optNumber = (v: unknown): boolean => nullish(v) || (typeof v === 'number' && Number.isFinite(v));

export interface ToolCallDelta {
  index?: number | null;
  id?: string | null;
  function: { name?: string | null; arguments?: string | null };
  extra_content?: { google?: { thought_signature?: string | null } | null } | null;
}

export interface ChunkDelta {
  content?: string | Array<Record<string, unknown> & { type: string }> | null;
  refusal?: string;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: ToolCallDelta[] | null;
}

export interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: {
    reasoning_tokens?: number | null;
    accepted_prediction_tokens?: number | null;
    rejected_prediction_tokens?: number | null;
  } | null;
  [key: string]: unknown;
}

export interface ChatChunk {
  id?: string | null;
  created?: number | null;
  model?: string | null;
  choices: Array<{ delta?: ChunkDelta | null; finish_reason?: string | null }>;
  usage?: ChatUsage | null;
  error?: unknown;
}

export type CheckedChunk = { ok: true; chunk: ChatChunk } | { ok: false; problem: string };

/** Only the keys a schema lists, in its order (a zod object drops the rest). */
function pick(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (k in o) out[k] = o[k];
  return out;
}

function checkUsage(u: unknown): string | undefined {
  if (nullish(u)) return undefined;
  if (!isObject(u)) return 'usage is not an object';
  for (const k of ['prompt_tokens', 'completion_tokens', 'total_tokens'])
    if (!optNumber(u[k])) return `usage.${k} is not a number`;
  const prompt = u.prompt_tokens_details;
  if (!nullish(prompt) && (!isObject(prompt) || !optNumber(prompt.cached_tokens)))
    return 'usage.prompt_tokens_details is malformed';
  const completion = u.completion_tokens_details;
  if (nullish(completion)) return undefined;
  if (!isObject(completion)) return 'usage.completion_tokens_details is not an object';
  for (const k of ['reasoning_tokens', 'accepted_prediction_tokens', 'rejected_prediction_tokens'])
    if (!optNumber(completion[k])) return `usage.completion_tokens_details.${k} is not a number`;
  return undefined;
}

function checkToolCall(t: unknown, at: string): ToolCallDelta | string {
  if (!isObject(t)) return `${at} is not an object`;
  if (!optNumber(t.index) || !optString(t.id)) return `${at}.index or .id is malformed`;
  const fn = t.function;
  if (!isObject(fn) || !optString(fn.name) || !optString(fn.arguments)) return `${at}.function is malformed`;
  const extra = t.extra_content;
  if (!nullish(extra)) {
    if (!isObject(extra)) return `${at}.extra_content is not an object`;
    const google = extra.google;
    if (!nullish(google) && (!isObject(google) || !optString(google.thought_signature)))
      return `${at}.extra_content.google is malformed`;
  }
  return {
    ...pick(t, ['index', 'id']),
    function: pick(fn, ['name', 'arguments']),
    ...pick(t, ['extra_content']),
  } as ToolCallDelta;
}

function checkDelta(d: unknown, at: string): ChunkDelta | null | undefined | string {
  if (nullish(d)) return d;
  if (!isObject(d)) return `${at} is not an object`;
  if (!nullish(d.role) && d.role !== 'assistant' && d.role !== '') return `${at}.role is not "assistant"`;
  const content = d.content;
  if (!nullish(content) && typeof content !== 'string') {
    if (!Array.isArray(content)) return `${at}.content is neither text nor parts`;
    if (!content.every((p) => isObject(p) && typeof p.type === 'string'))
      return `${at}.content has a bad part`;
  }
  if (!optString(d.reasoning_content) || !optString(d.reasoning)) return `${at}.reasoning is not text`;
  let toolCalls: ToolCallDelta[] | null | undefined;
  if (nullish(d.tool_calls)) toolCalls = d.tool_calls;
  else {
    if (!Array.isArray(d.tool_calls)) return `${at}.tool_calls is not an array`;
    toolCalls = [];
    for (const [i, t] of d.tool_calls.entries()) {
      const checked = checkToolCall(t, `${at}.tool_calls[${i}]`);
      if (typeof checked === 'string') return checked;
      toolCalls.push(checked);
    }
  }
  return {
    ...pick(d, ['role', 'content']),
    ...(typeof d.refusal === 'string' ? { refusal: d.refusal } : {}),
    ...pick(d, ['reasoning_content', 'reasoning']),
    ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
  } as ChunkDelta;
}

function checkBase(v: Record<string, unknown>): ChatChunk | string {
  if (!optString(v.id) || !optNumber(v.created) || !optString(v.model))
    return 'id, created or model is malformed';
  if (!Array.isArray(v.choices)) return 'choices is not an array';
  const choices: ChatChunk['choices'] = [];
  for (const [i, c] of v.choices.entries()) {
    if (!isObject(c)) return `choices[${i}] is not an object`;
    const delta = checkDelta(c.delta, `choices[${i}].delta`);
    if (typeof delta === 'string') return delta;
    if (!optString(c.finish_reason)) return `choices[${i}].finish_reason is not text`;
    choices.push({ ...(delta === undefined ? {} : { delta }), ...pick(c, ['finish_reason']) });
  }
  const usage = checkUsage(v.usage);
  if (usage !== undefined) return usage;
  return { ...v, choices } as ChatChunk;
}

export interface ApiError {
  error: { message: string; type?: string | null; param?: unknown; code?: string | number | null };
}

/**
 * The API's error object (`{error: {message, type?, param?, code?}}`): an error reply's body, and the chunk
 * schema's second alternative.
 */
export function checkApiError(v: unknown): ApiError | undefined {
  const e = isObject(v) ? v.error : undefined;
  if (!isObject(e) || typeof e.message !== 'string' || !optString(e.type)) return undefined;
  if (!nullish(e.code) && typeof e.code !== 'string' && typeof e.code !== 'number') return undefined;
  return { error: pick(e, ['message', 'type', 'param', 'code']) as ApiError['error'] };
}

export function checkChunk(value: unknown): CheckedChunk {
  if (!isObject(value)) return { ok: false, problem: 'the chunk is not an object' };
  const base = checkBase(value);
  if (typeof base !== 'string') return { ok: true, chunk: base };
  const error = checkApiError(value);
  return error ? { ok: true, chunk: error as unknown as ChatChunk } : { ok: false, problem: base };
}
