// The §9.2/§9.5/§10.2 success envelope and the §13 parallel blocks as the transcript cards recognise them.
import { describe, expect, it } from 'vitest';
import { parseParallelBlocks, parseSyncEnvelope } from '../../../src/web/transcript/envelope.ts';

// Spec texts, verbatim (delegate.md §10.2).
const WARNING =
  'Warning: The delegated agent recovered through a provider fallback. Provider failure details were logged and omitted from this result.';

describe('synchronous envelope', () => {
  it('recognises the one-shot form (§9.2) and keeps the response whole', () => {
    const env = parseSyncEnvelope("[Agent 'writer' (anthropic/claude-x)]\nline one\n\nline two", 'writer');
    expect(env).toEqual({
      response: 'line one\n\nline two',
      details: { agentic: false, served: 'anthropic/claude-x', requested: null, warning: null },
    });
  });

  it('recognises the agentic form (§9.5), a model name with slashes and parentheses', () => {
    const env = parseSyncEnvelope("[Agent 'r' (ollama/meta/llama (8b), agentic)]\nok", 'r');
    expect(env?.details).toEqual({
      agentic: true,
      served: 'ollama/meta/llama (8b)',
      requested: null,
      warning: null,
    });
    expect(env?.response).toBe('ok');
  });

  it('recognises both fallback forms (§10.2) with the warning once at the end', () => {
    const one = `[Agent 'w' (requested: custom.primary/primary-model; served: custom.backup/primary-model)]\nthe answer\n\n${WARNING}`;
    expect(parseSyncEnvelope(one, 'w')).toEqual({
      response: 'the answer',
      details: {
        agentic: false,
        served: 'custom.backup/primary-model',
        requested: 'custom.primary/primary-model',
        warning: WARNING,
      },
    });
    const ag = `[Agent 'w' (requested: custom.a/m1; served: custom.b/m2, agentic)]\nx\n\n${WARNING}`;
    expect(parseSyncEnvelope(ag, 'w')?.details).toMatchObject({
      agentic: true,
      served: 'custom.b/m2',
      requested: 'custom.a/m1',
    });
  });

  it('refuses a fallback header without the warning, or with it twice', () => {
    const head = "[Agent 'w' (requested: custom.a/m1; served: custom.b/m2)]";
    expect(parseSyncEnvelope(`${head}\ncut short\n[… 12 characters truncated]`, 'w')).toBeNull();
    expect(parseSyncEnvelope(`${head}\n${WARNING}\n\n${WARNING}`, 'w')).toBeNull();
  });

  it('refuses failures, other agents, header-only text and look-alikes', () => {
    expect(parseSyncEnvelope("Error: Agent 'w' failed: model_provider boom", 'w')).toBeNull();
    expect(parseSyncEnvelope("Agent 'w' timed out after 120s", 'w')).toBeNull();
    expect(parseSyncEnvelope("[Agent 'other' (anthropic/m)]\nhi", 'w')).toBeNull();
    expect(parseSyncEnvelope("[Agent 'w' (anthropic/m)]", 'w')).toBeNull();
    expect(parseSyncEnvelope("x [Agent 'w' (anthropic/m)]\nhi", 'w')).toBeNull();
  });
});

describe('parallel blocks', () => {
  const text = [
    '[Parallel delegation: 3 agents]',
    '',
    "--- a (success=true) ---\n[Agent 'a' (anthropic/m)]\nfrom a\n\nmore a",
    '',
    "--- b (success=false) ---\nError: Agent 'b' failed: boom",
    '',
    '--- a (success=true) ---\nagain',
  ].join('\n');

  it('splits the aggregate per target in list order, repeats included', () => {
    expect(parseParallelBlocks(text, ['a', 'b', 'a'])).toEqual([
      { agent: 'a', text: "[Agent 'a' (anthropic/m)]\nfrom a\n\nmore a" },
      { agent: 'b', text: "Error: Agent 'b' failed: boom" },
      { agent: 'a', text: 'again' },
    ]);
  });

  it('drops the aggregate error the stored result carries when a child failed', () => {
    const stored = `${text}\n\nError: One or more parallel agents failed`;
    expect(parseParallelBlocks(stored, ['a', 'b', 'a'])?.at(-1)).toEqual({ agent: 'a', text: 'again' });
  });

  it('refuses refusals, join errors and a list that does not match', () => {
    expect(
      parseParallelBlocks("Error: 'parallel' array must contain at least one agent name", []),
    ).toBeNull();
    expect(
      parseParallelBlocks('[Parallel delegation: 1 agents]\n\n--- [join error] ---\nboom', ['a']),
    ).toBeNull();
    expect(parseParallelBlocks(text, ['a', 'b'])).toBeNull();
    expect(parseParallelBlocks(text, ['b', 'a', 'a'])).toBeNull();
  });
});
