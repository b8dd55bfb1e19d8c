// Thinking levels (delegate.md §9.7): the level table, prefixes, unknown levels, and the per-type wire tuning.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  THINKING_LEVELS,
  thinkingEffects,
  thinkingOf,
  withThinkingPrefix,
} from '../../../src/agent/thinking/levels.ts';
import { THINKING_PREFIXES } from '../../../src/agent/thinking/thinking-messages.ts';
import { createLogger, createSilentLogger } from '../../../src/core/logger.ts';
import { boostedTemperature, tuneForThinking } from '../../../src/providers/native-thinking.ts';

const silent = createSilentLogger();

function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l.trim()) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', destination }) };
}

describe('the level table', () => {
  it('is exactly the documented one', () => {
    expect(THINKING_LEVELS).toEqual({
      minimal: { budgetTokens: 1024, effort: 'low', temperatureBoost: 0 },
      low: { budgetTokens: 4000, effort: 'low', temperatureBoost: 0 },
      medium: { budgetTokens: 10000, effort: 'medium', temperatureBoost: 0 },
      high: { budgetTokens: 24000, effort: 'high', temperatureBoost: 0 },
      max: { budgetTokens: 50000, effort: 'high', temperatureBoost: 0.1 },
    });
    expect(THINKING_PREFIXES).toEqual({
      minimal: 'Think briefly before you answer.',
      low: 'Think before you answer.',
      medium: 'Think step by step before you answer.',
      high: 'Think carefully, step by step, before you answer.',
      max: 'Think very carefully and exhaustively.',
    });
  });

  it('native max: a 50000-token budget and +0.1 temperature', () => {
    expect(thinkingEffects({ level: 'max', native: true }, silent)).toEqual({
      native: { budgetTokens: 50000, effort: 'high', temperatureBoost: 0.1 },
    });
  });

  it('non-native max: the §9.7 sentence as a prefix, nothing on the wire', () => {
    expect(thinkingEffects({ level: 'max', native: false }, silent)).toEqual({
      systemPrefix: 'Think very carefully and exhaustively.',
    });
  });

  it('a bounded child keeps its own temperature: no boost', () => {
    const fx = thinkingEffects({ level: 'max', native: true, keepTemperature: true }, silent);
    expect(fx.native).toEqual({ budgetTokens: 50000, effort: 'high', temperatureBoost: 0 });
  });

  it('levels match trimmed and case-insensitively; off and none have no effect', () => {
    expect(thinkingEffects({ level: ' MAX ', native: false }, silent).systemPrefix).toBe(
      'Think very carefully and exhaustively.',
    );
    expect(thinkingEffects({ level: 'off', native: true }, silent)).toEqual({});
    expect(thinkingEffects({ level: 'None', native: false }, silent)).toEqual({});
    expect(thinkingEffects(undefined, silent)).toEqual({});
  });

  it('an unknown level has no effect and warns once per process', () => {
    const { lines, logger } = recordingLogger();
    for (let i = 0; i < 3; i++) {
      expect(thinkingEffects({ level: 'ultra-unit', native: true }, logger)).toEqual({});
    }
    const warnings = lines.filter((l) => l.msg === 'unknown thinking level; thinking has no effect');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.thinking_level).toBe('ultra-unit');
  });
});

describe('the profile setting', () => {
  it('needs a default_level; native_thinking defaults to false', () => {
    expect(thinkingOf({ thinking: undefined })).toBeUndefined();
    expect(thinkingOf({ thinking: { default_level: undefined, native_thinking: true } })).toBeUndefined();
    expect(thinkingOf({ thinking: { default_level: '  ', native_thinking: true } })).toBeUndefined();
    expect(thinkingOf({ thinking: { default_level: 'high', native_thinking: undefined } })).toEqual({
      level: 'high',
      native: false,
    });
  });
});

describe('the system prompt prefix', () => {
  it('is its own paragraph before everything else', () => {
    expect(withThinkingPrefix('## Safety\n- x', { systemPrefix: 'P.' })).toBe('P.\n\n## Safety\n- x');
    expect(withThinkingPrefix('## Safety', {})).toBe('## Safety');
  });
});

describe('wire tuning per provider type', () => {
  const max = { budgetTokens: 50000, effort: 'high' as const, temperatureBoost: 0.1 };

  it('rounds the boosted temperature: 0.2 + 0.1 is exactly 0.3; unset stays unset', () => {
    expect(boostedTemperature(0.2, 0.1)).toBe(0.3);
    expect(boostedTemperature(0.7, 0.1)).toBe(0.8);
    expect(boostedTemperature(undefined, 0.1)).toBeUndefined();
    expect(boostedTemperature(2, 0.1)).toBe(2);
    expect(boostedTemperature(0.25, 0)).toBe(0.25);
  });

  it('anthropic: enabled thinking with the budget, no temperature, max_tokens left to the SDK', () => {
    expect(tuneForThinking('anthropic', { temperature: 0.2, maxOutputTokens: 1000 }, max)).toEqual({
      temperature: undefined,
      maxOutputTokens: 1000,
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 50000 } } },
    });
  });

  it('openai-compatible types: reasoning_effort and the boosted temperature', () => {
    for (const type of ['custom', 'ollama', 'openrouter'] as const) {
      expect(tuneForThinking(type, { temperature: 0.2, maxOutputTokens: undefined }, max)).toEqual({
        temperature: 0.3,
        maxOutputTokens: undefined,
        providerOptions: { openaiCompatible: { reasoningEffort: 'high' } },
      });
    }
    expect(tuneForThinking('openai', { temperature: 0.2, maxOutputTokens: 5 }, max).providerOptions).toEqual({
      openai: { reasoningEffort: 'high' },
    });
  });

  it('no thinking leaves the settings untouched', () => {
    const base = { temperature: 0.2, maxOutputTokens: 7 };
    expect(tuneForThinking('anthropic', base, undefined)).toBe(base);
  });
});
