// Setup problems behind a failed chain and the one chat text each gets (no model reachable, key refused, model not pulled).
import { describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { type Candidate, resolveCandidates } from '../../../src/providers/candidates.ts';
import type { ClassifiedFailure } from '../../../src/providers/classify-failure.ts';
import { selectCandidates } from '../../../src/providers/model-selection.ts';
import { setupProblemText } from '../../../src/providers/provider-messages.ts';
import { diagnoseSetup, type FailedAttempt } from '../../../src/providers/setup-problem.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const TOML = `
schema_version = 3
[providers.models.openai.hosted]
model = "gpt"
fallback = ["anthropic.hosted", "custom.local"]
[providers.models.anthropic.hosted]
model = "claude"
[providers.models.custom.local]
uri = "http://127.0.0.1:11434/v1"
model = "qwen2.5-coder:7b"
[providers.models.custom.lab]
uri = "http://10.0.0.5:8000/v1"
model = "lab-model"
[providers.models.openai.own]
model = "gpt"
api_key = "sk-own-key-123"
[risk_profiles.p]
[agents.a]
risk_profile = "p"
`;
const { providers } = configFromToml(TOML);

function chain(ref: string, env: Record<string, string> = {}) {
  return selectCandidates(resolveCandidates(ref, providers, env, createSilentLogger()));
}

function failure(kind: 'network' | 'http_401' | 'http_404' | 'http_500'): ClassifiedFailure {
  const status = kind === 'network' ? undefined : Number(kind.slice(5));
  const failureClass = kind === 'http_401' ? 'auth' : kind === 'http_404' ? 'invalid_request' : 'retryable';
  return {
    failureClass,
    retryable: kind === 'network' || kind === 'http_500',
    kind,
    phase: kind === 'network' ? 'connect' : 'response',
    hint: '',
    details: { ...(status ? { status } : {}), error: 'x' },
  };
}

const attempt = (candidate: Candidate, kind: Parameters<typeof failure>[0]): FailedAttempt => ({
  candidate,
  model: candidate.model,
  failure: failure(kind),
});

describe('diagnoseSetup and its chat texts', () => {
  it('Ollama refusing connections with no key set: start Ollama or set a key', () => {
    const { usable, skipped } = chain('openai.hosted');
    const local = usable[0]!;
    const problem = diagnoseSetup([attempt(local, 'network'), attempt(local, 'network')], skipped);
    expect(setupProblemText(problem!)).toBe(
      '⚠️ No model is reachable. Start Ollama (`ollama serve`, then `ollama pull qwen2.5-coder:7b`) and send your message again, or set OPENAI_API_KEY or ANTHROPIC_API_KEY and restart baton.',
    );
  });

  it('another unreachable server is named by its alias, with no uri', () => {
    const { usable, skipped } = chain('custom.lab');
    const problem = diagnoseSetup([attempt(usable[0]!, 'network')], skipped);
    expect(setupProblemText(problem!)).toBe(
      "⚠️ No model is reachable: baton could not connect to the model provider 'custom.lab'. Check that its server is running and its uri is right, then send your message again.",
    );
  });

  it('a refused key names its variable, even when the local fallback was unreachable too', () => {
    const { usable, skipped } = chain('openai.hosted', { ANTHROPIC_API_KEY: 'sk-ant-123456' });
    const [anthropic, local] = usable;
    const problem = diagnoseSetup([attempt(anthropic!, 'http_401'), attempt(local!, 'network')], skipped);
    expect(setupProblemText(problem!)).toBe(
      "⚠️ The model provider 'anthropic.hosted' rejected the API key in ANTHROPIC_API_KEY. Set a valid key and restart baton.",
    );
  });

  it('a refused literal key names its config path; a request sent with no key asks for one', () => {
    const own = chain('openai.own').usable[0]!;
    expect(setupProblemText(diagnoseSetup([attempt(own, 'http_401')], [])!)).toBe(
      "⚠️ The model provider 'openai.own' rejected the API key in providers.models.openai.own.api_key. Set a valid key and restart baton.",
    );
    const keyless = chain('anthropic.hosted').usable[0]!;
    expect(setupProblemText(diagnoseSetup([attempt(keyless, 'http_401')], [])!)).toBe(
      "⚠️ The model provider 'anthropic.hosted' needs an API key: set ANTHROPIC_API_KEY and restart baton.",
    );
  });

  it('Ollama answering 404 means the model is not pulled', () => {
    const local = chain('custom.local').usable[0]!;
    expect(setupProblemText(diagnoseSetup([attempt(local, 'http_404')], [])!)).toBe(
      '⚠️ Ollama is running but does not have the model qwen2.5-coder:7b. Run `ollama pull qwen2.5-coder:7b`, then send your message again.',
    );
  });

  it('anything else is no setup problem: the safe summary stays', () => {
    const { usable, skipped } = chain('openai.hosted');
    expect(diagnoseSetup([attempt(usable[0]!, 'http_500'), attempt(usable[0]!, 'network')], skipped)).toBe(
      undefined,
    );
    expect(diagnoseSetup([attempt(chain('custom.lab').usable[0]!, 'http_404')], [])).toBe(undefined);
    expect(diagnoseSetup([], skipped)).toBe(undefined);
  });
});
