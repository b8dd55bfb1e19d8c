// Thinking levels (delegate.md §9.7): what a run's `thinking` setting does to its model requests.
import type { RuntimeProfile } from '../../config/types.ts';
import type { Logger } from '../../core/logger.ts';
import type { NativeThinking } from '../../providers/types.ts';
import type { ThinkingSetting } from '../../run-contract/thinking-setting.ts';
import { THINKING_PREFIXES } from './thinking-messages.ts';

export type ThinkingLevel = 'minimal' | 'low' | 'medium' | 'high' | 'max';

interface LevelRow {
  budgetTokens: number;
  effort: NativeThinking['effort'];
  temperatureBoost: number;
}

/** Native budgets: 1024 is Anthropic's minimum `budget_tokens`; `max` is fixed by §9.7. */
export const THINKING_LEVELS: Readonly<Record<ThinkingLevel, Readonly<LevelRow>>> = {
  minimal: { budgetTokens: 1024, effort: 'low', temperatureBoost: 0 },
  low: { budgetTokens: 4000, effort: 'low', temperatureBoost: 0 },
  medium: { budgetTokens: 10000, effort: 'medium', temperatureBoost: 0 },
  high: { budgetTokens: 24000, effort: 'high', temperatureBoost: 0 },
  max: { budgetTokens: 50000, effort: 'high', temperatureBoost: 0.1 },
};

/** Levels that switch thinking off explicitly. */
const OFF_LEVELS = new Set(['off', 'none']);

export interface ThinkingEffects {
  /** Its own paragraph at the very start of the system prompt (non-native thinking). */
  systemPrefix?: string;
  /** Sent with every model request of the run (native thinking). */
  native?: NativeThinking;
}

/** The profile's setting, or undefined when it sets no level. */
export function thinkingOf(rp: Pick<RuntimeProfile, 'thinking'>): ThinkingSetting | undefined {
  const level = rp.thinking?.default_level?.trim();
  if (!level) return undefined;
  return { level, native: rp.thinking?.native_thinking === true };
}

const isLevel = (v: string): v is ThinkingLevel => Object.hasOwn(THINKING_LEVELS, v);

/** Unknown levels already reported by this process, so a busy agent logs its typo once. */
const warned = new Set<string>();

export function thinkingEffects(setting: ThinkingSetting | undefined, logger: Logger): ThinkingEffects {
  if (!setting) return {};
  const level = setting.level.trim().toLowerCase();
  if (OFF_LEVELS.has(level)) return {};
  if (!isLevel(level)) {
    if (!warned.has(setting.level)) {
      warned.add(setting.level);
      logger.warn(
        { thinking_level: setting.level, known: ['off', 'none', ...Object.keys(THINKING_LEVELS)] },
        'unknown thinking level; thinking has no effect',
      );
    }
    return {};
  }
  if (!setting.native) return { systemPrefix: THINKING_PREFIXES[level] };
  const row = THINKING_LEVELS[level];
  return {
    native: {
      budgetTokens: row.budgetTokens,
      effort: row.effort,
      temperatureBoost: setting.keepTemperature ? 0 : row.temperatureBoost,
    },
  };
}

/** Puts the prefix before the rest of the prompt as its own paragraph. */
export function withThinkingPrefix(system: string, effects: ThinkingEffects): string {
  if (!effects.systemPrefix) return system;
  return system === '' ? effects.systemPrefix : `${effects.systemPrefix}\n\n${system}`;
}
