// The part of a growing answer a person may see while it streams (ModelRequest.onText).
import { stripThinkBlocks } from './think-blocks.ts';

const THINK_OPEN = '<think>';
const TOOL_CALL_OPEN = '<tool_call';

/** Drops a tail that may be the start of `tag` (`<thi`, `<tool_c`), so no raw tag flashes by. */
function withoutPartialTag(text: string, tag: string): string {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(tag.slice(0, n))) return text.slice(0, -n);
  }
  return text;
}

/**
 * The visible text of `raw`: no `<think>` content (stripThinkBlocks' rules) and, when tools travel as
 * text, nothing from the first `<tool_call` on. Until `final`, a tail that may begin one of those tags
 * is held back too.
 */
export function visibleText(raw: string, opts: { hideToolCalls: boolean; final: boolean }): string {
  let out = stripThinkBlocks(opts.final ? raw : withoutPartialTag(raw, THINK_OPEN));
  if (opts.hideToolCalls) {
    const call = out.indexOf(TOOL_CALL_OPEN);
    if (call !== -1) out = out.slice(0, call);
    else if (!opts.final) out = withoutPartialTag(out, TOOL_CALL_OPEN);
  }
  return out.trimEnd();
}

export interface TextFeed {
  /** Passes `text` on when it differs from the last text passed on. */
  report(text: string): void;
  /** A new attempt: reports '' if this request's listener had been shown text. */
  restart(): void;
}

/** Wraps one request's listener: it hears each change once, and its errors never reach the stream. */
export function createTextFeed(onText: (text: string) => void, onError: (err: unknown) => void): TextFeed {
  let last = '';
  const report = (text: string): void => {
    if (text === last) return;
    last = text;
    try {
      onText(text);
    } catch (err) {
      onError(err);
    }
  };
  return { report, restart: () => report('') };
}
