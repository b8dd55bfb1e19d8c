// Thinking across delegation (delegate.md §8.1, §9.7): bounded keeps the caller's, independent applies its own.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import type { DelegateWorker } from '../../../src/queue/delegate-worker.ts';
import { systemPromptOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { startHarnessDelegateWorker } from '../../helpers/delegate-worker.ts';
import { delegateCall } from './delegate-config.ts';
import { requestsFor, resultOf } from './helpers.ts';

const provider = (alias: string, temperature?: number) => `
[providers.models.custom.${alias}]
uri = "\${MODEL_URI}"
model = "${alias}-model"
${temperature === undefined ? '' : `temperature = ${temperature}`}
`;

const agent = (alias: string, risk: string, runtime: string, extra = '') => `
[agents.${alias}]
model_provider = "custom.${alias}"
risk_profile = "${risk}"
runtime_profile = "${runtime}"
${extra}
`;

const TOML = `
${['caller', 'thinker', 'nativecaller'].map((a) => provider(a, 0.2)).join('')}
${provider('boundprompt', 0.5)}${provider('boundnative', 0.5)}
${provider('indieprompt', 0.4)}${provider('indienative', 0.4)}${provider('indieshot', 0.4)}

[reliability]
provider_retries = 0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate"]

[risk_profiles.other]
allowed_tools = ["file_read"]

[runtime_profiles.plain]
max_tool_iterations = 4

[runtime_profiles.nativemax]
thinking = { default_level = "max", native_thinking = true }

[runtime_profiles.promptmax]
thinking = { default_level = "max" }

[runtime_profiles.agentic_nativemax]
agentic = true
thinking = { default_level = "max", native_thinking = true }

[runtime_profiles.agentic_promptmax]
agentic = true
thinking = { default_level = "max" }

${agent('caller', 'ops', 'plain', 'delegates = [{ agent = "indieprompt", mode = "independent" }, { agent = "indienative", mode = "independent" }, { agent = "indieshot", mode = "independent" }]')}
${agent('thinker', 'ops', 'promptmax')}
${agent('nativecaller', 'ops', 'nativemax', 'delegates = [{ agent = "indieprompt", mode = "independent" }]')}
${agent('boundprompt', 'ops', 'agentic_promptmax')}
${agent('boundnative', 'ops', 'agentic_nativemax')}
${agent('indieprompt', 'other', 'agentic_promptmax')}
${agent('indienative', 'other', 'agentic_nativemax')}
${agent('indieshot', 'other', 'promptmax')}
`;

const MAX_PREFIX = 'Think very carefully and exhaustively.';

let h: AgentHarness;
let worker: DelegateWorker;
beforeAll(async () => {
  h = await createAgentHarness('delegate-thinking', TOML);
  worker = startHarnessDelegateWorker(h, {
    concurrency: 1,
    shutdownGraceMs: 100,
  });
});
afterAll(async () => {
  await worker.close();
  await h.close();
});
beforeEach(() => h.server.reset());

/** One delegation from `caller` to `target`, whose reply is `reply`; returns the tool result. */
async function delegate(caller: string, target: string, reply = 'child done') {
  h.server.script([{ toolCalls: [delegateCall('d1', { agent: target, prompt: 'go' })] }, { text: 'back' }], {
    model: `${caller}-model`,
  });
  h.server.script([{ text: reply }], { model: `${target}-model` });
  await h.turn(caller, 'start');
  return resultOf(h.server, 'd1');
}

const only = (model: string) => {
  const reqs = requestsFor(h.server, model);
  expect(reqs).toHaveLength(1);
  return reqs[0]!;
};

describe('a bounded target keeps the caller thinking', () => {
  it('caller without thinking: the target own max has no effect; its temperature is its own', async () => {
    expect(await delegate('caller', 'boundprompt')).toContain('child done');
    const child = only('boundprompt-model');
    expect(systemPromptOf(child)).not.toContain(MAX_PREFIX);
    expect(child.body.temperature).toBe(0.5);
    await delegate('caller', 'boundnative');
    const native = only('boundnative-model');
    expect('reasoning_effort' in native.body).toBe(false);
    expect(native.body.temperature).toBe(0.5);
  });

  it('prompt-thinking caller: the child gets the caller prefix, not its own native thinking', async () => {
    await delegate('thinker', 'boundnative');
    const child = only('boundnative-model');
    expect(systemPromptOf(child).split('\n\n')[0]).toBe(MAX_PREFIX);
    expect('reasoning_effort' in child.body).toBe(false);
    expect(child.body.temperature).toBe(0.5);
  });

  it('native caller: the child thinks natively with its own temperature, unraised', async () => {
    await delegate('nativecaller', 'boundprompt');
    const child = only('boundprompt-model');
    expect(child.body.reasoning_effort).toBe('high');
    expect(child.body.temperature).toBe(0.5);
    expect(systemPromptOf(child)).not.toContain(MAX_PREFIX);
    for (const req of requestsFor(h.server, 'nativecaller-model')) expect(req.body.temperature).toBe(0.3);
  });
});

describe('an independent target applies its own thinking', () => {
  it('agentic, prompt max: the prefix in the child only; the caller next request is unchanged', async () => {
    await delegate('caller', 'indieprompt');
    const child = only('indieprompt-model');
    expect(systemPromptOf(child).split('\n\n')[0]).toBe(MAX_PREFIX);
    expect(child.body.temperature).toBe(0.4);
    const callerReqs = requestsFor(h.server, 'caller-model');
    expect(callerReqs).toHaveLength(2);
    for (const req of callerReqs) {
      expect(systemPromptOf(req)).not.toContain(MAX_PREFIX);
      expect(req.body.temperature).toBe(0.2);
    }
  });

  it('agentic, native max: effort high and 0.4 raised to 0.5; the caller is unaffected', async () => {
    await delegate('caller', 'indienative');
    const child = only('indienative-model');
    expect(child.body.reasoning_effort).toBe('high');
    expect(child.body.temperature).toBe(0.5);
    for (const req of requestsFor(h.server, 'caller-model')) {
      expect('reasoning_effort' in req.body).toBe(false);
      expect(req.body.temperature).toBe(0.2);
    }
  });

  it('one-shot: the prefix heads its single request', async () => {
    expect(await delegate('caller', 'indieshot', 'shot')).toBe(
      "[Agent 'indieshot' (custom/indieshot-model)]\nshot",
    );
    expect(systemPromptOf(only('indieshot-model')).split('\n\n')[0]).toBe(MAX_PREFIX);
  });

  it('a native caller with a prompt-thinking target: each run has its own, before and after', async () => {
    await delegate('nativecaller', 'indieprompt');
    const child = only('indieprompt-model');
    expect(systemPromptOf(child).split('\n\n')[0]).toBe(MAX_PREFIX);
    expect('reasoning_effort' in child.body).toBe(false);
    expect(child.body.temperature).toBe(0.4);
    const [first, second] = requestsFor(h.server, 'nativecaller-model');
    for (const req of [first!, second!]) {
      expect(req.body.reasoning_effort).toBe('high');
      expect(req.body.temperature).toBe(0.3);
      expect(systemPromptOf(req)).not.toContain(MAX_PREFIX);
    }
  });
});

describe('a background bounded target', () => {
  it('keeps the caller thinking carried in the job payload', async () => {
    h.server.script(
      [
        { toolCalls: [delegateCall('bg', { agent: 'boundnative', prompt: 'go', background: true })] },
        { text: 'started' },
      ],
      { model: 'thinker-model' },
    );
    h.server.script([{ text: 'bg done' }], { model: 'boundnative-model' });
    await h.turn('thinker', 'start');
    const id = /task_id: ([0-9a-f-]{36})/.exec(resultOf(h.server, 'bg') ?? '')?.[1];
    expect(id).toBeDefined();
    const tasks = createDelegateTasks(h.redis, h.prefix);
    const deadline = Date.now() + 5000;
    while ((await tasks.get(id!))?.status !== 'completed') {
      if (Date.now() > deadline) throw new Error(`task ${id} did not complete`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const child = only('boundnative-model');
    expect(systemPromptOf(child).split('\n\n')[0]).toBe(MAX_PREFIX);
    expect('reasoning_effort' in child.body).toBe(false);
    expect(child.body.temperature).toBe(0.5);
  });
});
