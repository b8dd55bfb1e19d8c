// Native thinking on the wire, per provider type (delegate.md §9.7), through the AI SDK's providerOptions.
import type { ProviderType } from './candidates.ts';
import type { SdkCallOptions } from './sdk-model.ts';
import type { NativeThinking } from './types.ts';

export type SdkProviderOptions = NonNullable<SdkCallOptions['providerOptions']>;

export interface CallTuning {
  temperature: number | undefined;
  maxOutputTokens: number | undefined;
  providerOptions?: SdkProviderOptions;
}

/** The OpenAI-compatible APIs' upper temperature bound. */
const MAX_TEMPERATURE = 2;

/** `base + boost` to two decimals, so 0.2 + 0.1 is 0.3 and not 0.30000000000000004; unset stays unset. */
export function boostedTemperature(base: number | undefined, boost: number): number | undefined {
  if (base === undefined || boost === 0) return base;
  return Math.min(MAX_TEMPERATURE, Math.round((base + boost) * 100) / 100);
}

/** The call settings of one candidate with the request's native thinking applied. */
export function tuneForThinking(
  type: ProviderType,
  base: CallTuning,
  thinking: NativeThinking | undefined,
): CallTuning {
  if (!thinking) return base;
  switch (type) {
    case 'anthropic':
      // The Messages API accepts only its default temperature with thinking on, so none is sent. The SDK
      // sends max_tokens = (max_tokens, or the model's default) + budget_tokens, which keeps max_tokens above it.
      return {
        temperature: undefined,
        maxOutputTokens: base.maxOutputTokens,
        providerOptions: {
          anthropic: { thinking: { type: 'enabled', budgetTokens: thinking.budgetTokens } },
        },
      };
    case 'openai':
      return {
        temperature: boostedTemperature(base.temperature, thinking.temperatureBoost),
        maxOutputTokens: base.maxOutputTokens,
        providerOptions: { openai: { reasoningEffort: thinking.effort } },
      };
    case 'openrouter':
    case 'ollama':
    case 'custom':
      // Sent as the top-level `reasoning_effort` of the chat-completions body.
      return {
        temperature: boostedTemperature(base.temperature, thinking.temperatureBoost),
        maxOutputTokens: base.maxOutputTokens,
        providerOptions: { openaiCompatible: { reasoningEffort: thinking.effort } },
      };
  }
}
