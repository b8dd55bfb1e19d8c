import { describe, expect, it } from 'vitest';
import {
  contextBudget,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_ROOT_REQUEST_TIMEOUT_SECS,
  rootRequestTimeoutSecs,
} from '../../../src/agent/context-budget.ts';
import { runtimeProfileFor } from '../../../src/config/lookup.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const config = configFromToml(`
schema_version = 3

[providers.models.custom.big]
uri = "http://127.0.0.1:1/v1"
model = "m"
context_window = 100000
max_tokens = 4000
timeout_secs = 7

[providers.models.custom.small]
uri = "http://127.0.0.1:1/v1"
model = "m"
context_window = 8000

[providers.models.custom.chained]
uri = "http://127.0.0.1:1/v1"
model = "m"
context_window = 100000
fallback = ["custom.small"]

[providers.models.custom.plain]
uri = "http://127.0.0.1:1/v1"
model = "m"

[risk_profiles.p]

[runtime_profiles.capped]
max_context_tokens = 5000
max_history_messages = 12

[agents.a]
risk_profile = "p"
model_provider = "custom.big"

[agents.b]
risk_profile = "p"
model_provider = "custom.big"
runtime_profile = "capped"
`);
const open = runtimeProfileFor(config, 'a');
const capped = runtimeProfileFor(config, 'b');

describe('contextBudget', () => {
  it('is the context_window minus max_tokens, with 50 earlier messages by default', () => {
    expect(contextBudget(config, 'custom.big', open)).toEqual({ maxTokens: 96_000, maxHistoryMessages: 50 });
  });
  it('reserves a quarter of the window for the answer when max_tokens is unset', () => {
    expect(contextBudget(config, 'custom.small', open).maxTokens).toBe(6000);
  });
  it('uses the default window when the provider declares none', () => {
    expect(contextBudget(config, 'custom.plain', open).maxTokens).toBe(DEFAULT_CONTEXT_WINDOW - 8000);
  });
  it('takes the smallest window of the fallback chain', () => {
    expect(contextBudget(config, 'custom.chained', open).maxTokens).toBe(6000);
  });
  it('reserves the native-thinking budget too', () => {
    const thinking = { budgetTokens: 2000, effort: 'low' as const, temperatureBoost: 0 };
    expect(contextBudget(config, 'custom.big', open, thinking).maxTokens).toBe(94_000);
  });
  it('is capped by max_context_tokens and max_history_messages', () => {
    expect(contextBudget(config, 'custom.big', capped)).toEqual({ maxTokens: 5000, maxHistoryMessages: 12 });
  });
  it('follows the provider in effect (model_switch, route_down)', () => {
    expect(contextBudget(config, 'custom.small', capped).maxTokens).toBe(5000);
    expect(
      contextBudget(config, 'custom.small', { ...capped, max_context_tokens: undefined }).maxTokens,
    ).toBe(6000);
  });
});

describe('rootRequestTimeoutSecs', () => {
  it("is the provider's timeout_secs, else the documented default", () => {
    expect(rootRequestTimeoutSecs(config, 'custom.big')).toBe(7);
    expect(rootRequestTimeoutSecs(config, 'custom.plain')).toBe(DEFAULT_ROOT_REQUEST_TIMEOUT_SECS);
    expect(rootRequestTimeoutSecs(config, '__proto__')).toBe(DEFAULT_ROOT_REQUEST_TIMEOUT_SECS);
  });
});
