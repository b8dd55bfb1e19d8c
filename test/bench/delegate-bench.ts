// delegate benchmarks: parallel fan-out against a single target, and await_sessions wake-up latency.
import { createDelegateTasks } from '../../src/delegation/delegate-tasks.ts';
import type { ToolResult } from '../../src/run-contract/tool.ts';
import { buildToolSet } from '../../src/tools/tool-set.ts';
import { type AgentHarness, createAgentHarness } from '../helpers/agent-harness.ts';
import { startHarnessDelegateWorker } from '../helpers/delegate-worker.ts';
import { buildRunContext } from '../helpers/run-context.ts';
import { startModelProcess } from './model-process.ts';

const TARGETS = Array.from({ length: 16 }, (_, i) => `t${String(i + 1).padStart(2, '0')}`);
const MODEL_DELAY_MS = 100;

const TOML = `
[providers.models.custom.main]
uri = "\${MODEL_URI}"
model = "main-model"

[providers.models.custom.target]
uri = "\${MODEL_URI}"
model = "target-model"

[reliability]
provider_retries = 0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate"]

[runtime_profiles.root]
max_actions_per_hour = 1000000
max_tool_iterations = 4

[agents.main]
model_provider = "custom.main"
risk_profile = "ops"
runtime_profile = "root"
${TARGETS.map((t) => `\n[agents.${t}]\nmodel_provider = "custom.target"\nrisk_profile = "ops"\nruntime_profile = "root"\n`).join('')}
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The delegate tool of a top-level `main` run, called directly: the measure is the tool, not main's model. */
function delegateTool(h: AgentHarness): (args: Record<string, unknown>) => Promise<ToolResult> {
  const run = buildRunContext({ config: h.services.config, agentAlias: 'main', services: h.services });
  const tool = buildToolSet(run).get('delegate');
  if (!tool) throw new Error('bench: main has no delegate tool');
  let n = 0;
  return (args) => tool.execute(args, { run, toolCallId: `bench-${++n}`, signal: run.signal });
}

async function timed(call: () => Promise<ToolResult>): Promise<number> {
  const start = performance.now();
  const res = await call();
  if (!res.success) throw new Error(`bench: delegate failed: ${res.error}`);
  return performance.now() - start;
}

/** `h` talks to a model in another process that answers every request after MODEL_DELAY_MS. */
async function fanOut(h: AgentHarness): Promise<Record<string, number>> {
  const delegate = delegateTool(h);
  const single = () => timed(() => delegate({ agent: 't01', prompt: 'x' }));
  const parallel = () => timed(() => delegate({ parallel: TARGETS, prompt: 'x' }));
  // Steady state: every target's provider chain built and the hot paths compiled before measuring.
  for (let i = 0; i < 3; i++) {
    await single();
    await parallel();
  }
  const s: number[] = [];
  const p: number[] = [];
  for (let i = 0; i < 9; i++) {
    s.push(await single());
    p.push(await parallel());
  }
  return { single_target_ms: median(s), parallel_16_ms: median(p), parallel_16_ratio: median(p) / median(s) };
}

/** 100 background tasks; how long after the last one settles does await_sessions return? */
async function awaitLatency(h: AgentHarness): Promise<Record<string, number>> {
  h.server.reset();
  let answered = 0;
  // Staggered replies, so the last task settles well after the wait has started.
  h.server.respond(() => ({ delayMs: 300 + ++answered * 3, text: 'bg' }));
  const delegate = delegateTool(h);
  const ids: string[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await delegate({ agent: TARGETS[i % TARGETS.length], prompt: 'x', background: true });
    const id = /task_id: (\S+)/.exec(res.output)?.[1];
    if (!id) throw new Error(`bench: no task id: ${res.error}`);
    ids.push(id);
  }
  const res = await delegate({ action: 'await_sessions', task_ids: ids, timeout_ms: 60_000 });
  const returnedAt = Date.now();
  if (!res.success) throw new Error(`bench: await_sessions failed: ${res.error}`);
  const tasks = createDelegateTasks(h.redis, h.prefix);
  const finished = await Promise.all(
    ids.map(async (id) => Date.parse((await tasks.get(id))?.finished_at ?? '0')),
  );
  return { background_tasks: ids.length, await_after_last_ms: returnedAt - Math.max(...finished) };
}

export async function runDelegateBench(): Promise<Record<string, number>> {
  // Fan-out runs in the caller's worker (no queue involved), against a model in another process.
  const model = await startModelProcess(MODEL_DELAY_MS);
  let fan: Record<string, number>;
  try {
    // Production's default log level: debug lines would be part of the measure.
    const f = await createAgentHarness('delegate-fan', TOML, {
      logLevel: 'info',
      modelUri: model.openaiBaseUrl,
    });
    try {
      fan = await fanOut(f);
    } finally {
      await f.close();
    }
  } finally {
    model.close();
  }
  const h = await createAgentHarness('delegate-bench', TOML, { logLevel: 'info' });
  try {
    const worker = startHarnessDelegateWorker(h, { concurrency: 128 });
    try {
      return { ...fan, ...(await awaitLatency(h)) };
    } finally {
      await worker.close();
    }
  } finally {
    await h.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runDelegateBench().then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
