// Reads what a recorded fake-model request showed the model, the same way for both wire APIs.
import type { RecordedRequest } from './model-server.ts';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => (isObj(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The system prompt: OpenAI `system` messages, or Anthropic's top-level `system`. */
export function systemPromptOf(req: RecordedRequest): string {
  if (req.api === 'anthropic') return textOf(req.body.system);
  return arr(req.body.messages)
    .filter((m) => isObj(m) && m.role === 'system')
    .map((m) => (isObj(m) ? textOf(m.content) : ''))
    .join('\n');
}

/** Names of the native tools offered; empty when the request has no `tools` field. */
export function toolNamesOf(req: RecordedRequest): string[] {
  return arr(req.body.tools).map((t) => {
    if (!isObj(t)) return '';
    if (req.api === 'openai')
      return isObj(t.function) && typeof t.function.name === 'string' ? t.function.name : '';
    return typeof t.name === 'string' ? t.name : '';
  });
}

/** Native tool results carried by the request, in order. */
export function toolResultsOf(req: RecordedRequest): { toolCallId: string; content: string }[] {
  const out: { toolCallId: string; content: string }[] = [];
  for (const m of arr(req.body.messages)) {
    if (!isObj(m)) continue;
    if (req.api === 'openai' && m.role === 'tool') {
      out.push({ toolCallId: String(m.tool_call_id), content: textOf(m.content) });
    }
    if (req.api === 'anthropic' && m.role === 'user') {
      for (const part of arr(m.content)) {
        if (isObj(part) && part.type === 'tool_result') {
          out.push({ toolCallId: String(part.tool_use_id), content: textOf(part.content) });
        }
      }
    }
  }
  return out;
}

/** Every non-system message as `role: text`, joined by newlines (for substring checks). */
export function transcriptOf(req: RecordedRequest): string {
  return arr(req.body.messages)
    .filter((m): m is Json => isObj(m) && m.role !== 'system')
    .map((m) => `${String(m.role)}: ${textOf(m.content)}`)
    .join('\n');
}

/** A user message's content as the wire carried it: text parts and image parts (base64 bytes, media type). */
export type UserPart = { type: 'text'; text: string } | { type: 'image'; mediaType: string; base64: string };

function userParts(req: RecordedRequest, content: unknown): UserPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return arr(content).flatMap((part): UserPart[] => {
    if (!isObj(part)) return [];
    if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'text', text: part.text }];
    // OpenAI: `image_url` with a data URL; Anthropic: `image` with a base64 source.
    if (req.api === 'openai' && part.type === 'image_url' && isObj(part.image_url)) {
      const m = /^data:([^;]+);base64,(.*)$/s.exec(String(part.image_url.url));
      return m ? [{ type: 'image', mediaType: m[1] ?? '', base64: m[2] ?? '' }] : [];
    }
    if (req.api === 'anthropic' && part.type === 'image' && isObj(part.source)) {
      return [{ type: 'image', mediaType: String(part.source.media_type), base64: String(part.source.data) }];
    }
    return [];
  });
}

/** The parts of the newest user message of a request (the message the turn answers). */
export function lastUserPartsOf(req: RecordedRequest): UserPart[] {
  const last = arr(req.body.messages)
    .filter((m): m is Json => isObj(m) && m.role === 'user')
    .at(-1);
  return last ? userParts(req, last.content) : [];
}
