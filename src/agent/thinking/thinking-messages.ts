// Model-visible thinking prefixes for runs without native thinking (delegate.md §9.7; `max` is fixed there).
import type { ThinkingLevel } from './levels.ts';

export const THINKING_PREFIXES: Readonly<Record<ThinkingLevel, string>> = {
  minimal: 'Think briefly before you answer.',
  low: 'Think before you answer.',
  medium: 'Think step by step before you answer.',
  high: 'Think carefully, step by step, before you answer.',
  max: 'Think very carefully and exhaustively.',
};
