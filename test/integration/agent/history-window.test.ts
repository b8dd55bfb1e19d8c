// A long session against a model with a small context window, and a root turn whose model never answers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { modelRequestTimedOut } from '../../../src/agent/agent-messages.ts';
import { CHARS_PER_TOKEN } from '../../../src/agent/history-window.ts';
import { systemPromptOf, toolResultsOf, transcriptOf } from '../../fakes/model-requests.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';

const WINDOW = 4000;
const MAX_TOKENS = 1000;

const TOML = `
[providers.models.custom.small]
uri = "\${MODEL_URI}"
model = "small-model"
context_window = ${WINDOW}
max_tokens = ${MAX_TOKENS}

[providers.models.custom.silent]
uri = "\${MODEL_URI}"
model = "silent-model"
timeout_secs = 1

[reliability]
provider_retries = 0
provider_backoff_ms = 1

[risk_profiles.reader]
allowed_tools = ["file_read"]

[runtime_profiles.loop]
max_tool_iterations = 10

[agents.main]
model_provider = "custom.small"
risk_profile = "reader"
runtime_profile = "loop"

[agents.silent]
model_provider = "custom.silent"
risk_profile = "reader"
`;

const BIG = 'lorem ipsum '.repeat(400); // 4800 characters

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/**
 * What the fake model counts against its window, in characters (OpenAI wire format): every message's
 * text, tool-call names, ids and arguments, the tool list, and 12 characters of framing per message
 * and per call (3 characters a token, 4 tokens each, as the estimate documents).
 */
function sizeOf(req: RecordedRequest): number {
  let chars = str(req.body.tools ?? []).length;
  for (const m of (req.body.messages ?? []) as Json[]) {
    chars += 12 + str(m.content).length + str(m.tool_call_id).length;
    for (const c of (m.tool_calls ?? []) as Json[]) {
      const fn = (c.function ?? {}) as Json;
      chars += 12 + str(c.id).length + str(fn.name).length + str(fn.arguments).length;
    }
  }
  return chars;
}

let h: AgentHarness;
/** The request size (characters) the model accepts: the window less the answer, at the estimate's ratio. */
const LIMIT_CHARS = (WINDOW - MAX_TOKENS) * CHARS_PER_TOKEN;
beforeAll(async () => {
  h = await createAgentHarness('history-window', TOML);
  const dir = join(h.dataDir, 'workspaces', 'main');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 6; i++) writeFileSync(join(dir, `big${i}.txt`), BIG);
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  // Like a real API: a request over the context window is refused, so an untrimmed session fails.
  h.server.respond((req) =>
    sizeOf(req) > LIMIT_CHARS
      ? {
          status: 400,
          body: { error: { message: 'context_length_exceeded', code: 'context_length_exceeded' } },
        }
      : undefined,
  );
});

const readBig = (id: string, file = 0) => ({
  toolCalls: [{ id, name: 'file_read', arguments: { path: `big${file}.txt` } }],
});

describe('history within the context window', () => {
  it('keeps a long session working: old tool results shortened, oldest turns dropped, stored history intact', async () => {
    const session = 'long-session';
    const turns = 12;
    for (let i = 1; i <= turns; i++) {
      h.server.script([readBig(`r${i}`), { text: `answer ${i}` }]);
      const res = await h.turn('main', `question ${i}`, { session });
      expect(res.text).toBe(`answer ${i}`);
    }
    expect(h.server.requests).toHaveLength(turns * 2);
    for (const req of h.server.requests) expect(sizeOf(req)).toBeLessThanOrEqual(LIMIT_CHARS);

    // The stored history is never trimmed: every turn, every full tool result.
    const stored = await h.services.history.load('main', session, 1000);
    expect(stored).toHaveLength(turns * 4);
    expect(stored.filter((m) => m.role === 'tool').every((m) => m.content === BIG)).toBe(true);

    // The last request: the newest turns are there, the oldest are not, old results are cut.
    const last = h.server.requests.at(-1)!;
    const transcript = transcriptOf(last);
    expect(transcript).toContain('user: question 12');
    expect(transcript).toContain('assistant: answer 11');
    const asked = [...transcript.matchAll(/^user: question (\d+)$/gm)].map((m) => Number(m[1]));
    expect(asked.length).toBeLessThan(turns);
    expect(asked).toEqual(Array.from({ length: asked.length }, (_, i) => turns - asked.length + 1 + i));
    expect(systemPromptOf(last)).toContain('## Tools');
    const results = toolResultsOf(last);
    expect(results.at(-1)).toEqual({ toolCallId: 'r12', content: BIG });
    expect(results.slice(0, -1).every((r) => /\n\[… \d+ chars omitted\]$/.test(r.content))).toBe(true);
    // Every result still answers a call the request carries.
    const called = JSON.stringify(last.body.messages);
    for (const r of results) expect(called).toContain(`"id":"${r.toolCallId}"`);
  });

  it('keeps one long tool loop within the window, the latest result whole', async () => {
    const reads = 6; // 6 × 4800 characters is over the window on its own
    h.server.script([
      ...Array.from({ length: reads }, (_, i) => readBig(`l${i}`, i)),
      { text: 'read it all' },
    ]);
    const res = await h.turn('main', 'read the file many times');
    expect(res.text).toBe('read it all');
    for (const req of h.server.requests) expect(sizeOf(req)).toBeLessThanOrEqual(LIMIT_CHARS);
    const final = toolResultsOf(h.server.requests.at(-1)!);
    expect(final.map((r) => r.toolCallId)).toEqual(Array.from({ length: reads }, (_, i) => `l${i}`));
    expect(final.at(-1)?.content).toBe(BIG);
    expect(final[0]?.content).toMatch(/\n\[… \d+ chars omitted\]$/);
  });
});

describe("a root turn's model request deadline", () => {
  it('ends with a clear timeout error when the model never answers', async () => {
    h.server.respond(() => ({ delayMs: 600_000, text: 'never' }));
    const err = await h.turn('silent', 'hello?').catch((e: unknown) => e);
    expect((err as Error).message).toBe(modelRequestTimedOut(1));
    expect(h.server.requests).toHaveLength(1);
  });
});
