// How much one model request may carry (history-window.ts), and how long a root turn's request may take.
//
// Window: the smallest `context_window` set on the chain in effect (its provider entry and fallback
// entries), else DEFAULT_CONTEXT_WINDOW. Answer reserve: the entry's `max_tokens`, else a quarter of
// the window up to 8192, plus the native-thinking budget. What is left is capped by the runtime
// profile's `max_context_tokens`; the earlier-message count by `max_history_messages` (else 50).
import { providerOf } from '../config/lookup.ts';
import type { BatonConfig, RuntimeProfile } from '../config/types.ts';
import type { NativeThinking } from '../providers/types.ts';
import type { WindowBudget } from './history-window.ts';

/** Conservative: most current models take more, and small local models are set explicitly. */
export const DEFAULT_CONTEXT_WINDOW = 32_000;
export const DEFAULT_HISTORY_MESSAGES = 50;
const RESERVE_FRACTION = 4;
const MAX_FRACTION_RESERVE = 8192;

/** A root turn's per-attempt model request limit when the provider entry sets no `timeout_secs`. */
export const DEFAULT_ROOT_REQUEST_TIMEOUT_SECS = 300;

const positive = (n: number | undefined): n is number => n !== undefined && n > 0;

/** The smallest window any candidate of the chain declares, so a fallback is not sent more than it takes. */
export function contextWindowOf(config: BatonConfig, ref: string): number {
  const primary = providerOf(config, ref);
  const chain = [primary, ...(primary?.fallback ?? []).map((f) => providerOf(config, f))];
  const declared = chain.map((e) => e?.context_window).filter(positive);
  return declared.length === 0 ? DEFAULT_CONTEXT_WINDOW : Math.min(...declared);
}

export function contextBudget(
  config: BatonConfig,
  ref: string,
  runtime: Pick<RuntimeProfile, 'max_context_tokens' | 'max_history_messages'>,
  thinking?: NativeThinking,
): WindowBudget {
  const window = contextWindowOf(config, ref);
  const maxTokens = providerOf(config, ref)?.max_tokens;
  const answer = positive(maxTokens)
    ? maxTokens
    : Math.min(Math.floor(window / RESERVE_FRACTION), MAX_FRACTION_RESERVE);
  const reserve = answer + (thinking?.budgetTokens ?? 0);
  // A reserve as large as the window (a max_tokens typo) still leaves the request a quarter of it.
  const fromWindow = Math.max(window - reserve, Math.floor(window / RESERVE_FRACTION));
  const cap = runtime.max_context_tokens;
  return {
    maxTokens: positive(cap) ? Math.min(fromWindow, cap) : fromWindow,
    maxHistoryMessages: historyMessageLimit(runtime),
  };
}

/** `max_history_messages`, else 50; `0` sends no earlier messages. */
export function historyMessageLimit(runtime: Pick<RuntimeProfile, 'max_history_messages'>): number {
  return runtime.max_history_messages ?? DEFAULT_HISTORY_MESSAGES;
}

/** The per-attempt limit a root turn's request has on `ref`: its `timeout_secs`, else the default. */
export function rootRequestTimeoutSecs(config: BatonConfig, ref: string): number {
  const own = providerOf(config, ref)?.timeout_secs;
  return positive(own) ? own : DEFAULT_ROOT_REQUEST_TIMEOUT_SECS;
}
