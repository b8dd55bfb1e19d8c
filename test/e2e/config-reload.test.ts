// `baton reload` across a deployment: two `baton worker` processes and a gateway on one Redis prefix. After the
// file's delegation_policy is flipped and `baton reload` runs, both workers acknowledge and every later turn,
// on whichever worker, may delegate; before, the same call is refused with the spec's text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ackApplied, reloadAcknowledged } from '../../src/config/reload-messages.ts';
import { setDelegationPolicyMode } from '../../src/config/toml-edit.ts';
import { toolResultsOf } from '../fakes/model-requests.ts';
import type { RecordedRequest } from '../fakes/model-server.ts';
import { type BatonProcess, startBaton } from '../helpers/baton-process.ts';
import { runCli } from '../helpers/cli.ts';
import { createRuntimeHarness, LOCAL_PEERS, type RuntimeHarness } from '../helpers/runtime-harness.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[providers.models.custom.helper]
uri = "\${MODEL_URI}"
model = "helper-model"

[reliability]
provider_retries = 0

[risk_profiles.default]
auto_approve = ["delegate"]
delegation_policy = { mode = "forbidden" }   # flipped by the test

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"

[agents.helper]
model_provider = "custom.helper"
risk_profile = "default"
${LOCAL_PEERS}`;

const FORBIDDEN =
  'Error: delegation is forbidden for caller "main" by risk profile "default" delegation_policy; set [risk_profiles.default].delegation_policy mode = "allow"';
const MODE_PATH = 'risk_profiles.default.delegation_policy.mode';

let h: RuntimeHarness;
let cfgPath: string;
const workers: BatonProcess[] = [];

/** Which worker made a model request: each one's config sends its own name in a header. */
const workerOf = (req: RecordedRequest) => req.headers['x-baton-worker'];

beforeAll(async () => {
  h = await createRuntimeHarness('reload-e2e', TOML, { workers: 0 });
  cfgPath = join(h.dataDir, 'baton.toml');
  writeFileSync(
    cfgPath,
    h.configText.replace(
      'model = "fake-model"\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the TOML's own interpolation syntax
      'model = "fake-model"\nextra_headers = { "x-baton-worker" = "${WORKER_NAME}" }\n',
    ),
  );
  // main delegates to helper on every user message; its final answer quotes the delegate result.
  h.server.respond((req) => {
    if (req.body.model === 'helper-model') return { text: 'helper says hi' };
    const result = toolResultsOf(req).at(-1);
    if (result) return { text: `result: ${result.content}` };
    return { toolCalls: [{ name: 'delegate', arguments: { agent: 'helper', prompt: 'hi' } }] };
  });
});

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await h.close();
});

function startWorker(name: string): BatonProcess {
  const w = startBaton(['worker', '-c', cfgPath], { WORKER_NAME: name });
  workers.push(w);
  return w;
}

let chats = 0;
/** Sends one message on a fresh chat per entry, concurrently, and returns the replies' texts. */
async function ask(count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `chat-${++chats}`);
  await Promise.all(ids.map((chat) => h.local.inject({ chat, text: 'please delegate' })));
  const replies = await Promise.all(
    ids.map((chat) => h.local.waitForReplies(1, { chat, timeoutMs: 20_000 })),
  );
  return replies.map((r) => r[0]?.text ?? '');
}

describe('baton reload', () => {
  it('makes every worker apply the new delegation_policy from its next turn', async () => {
    const a = startWorker('worker-alpha-process');
    const b = startWorker('worker-bravo-process');
    await Promise.all([a.waitFor(/baton worker running/), b.waitFor(/baton worker running/)]);

    expect(await ask(2)).toEqual([`result: ${FORBIDDEN}`, `result: ${FORBIDDEN}`]);

    const edit = setDelegationPolicyMode(readFileSync(cfgPath, 'utf8'), 'default', 'allow');
    if (!edit.ok) throw new Error(edit.error);
    writeFileSync(cfgPath, edit.text);
    const res = await runCli(['reload', '-c', cfgPath], { WORKER_NAME: 'cli' });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines[0]).toBe(reloadAcknowledged(2, 2, h.prefix));
    const applied = lines.slice(1).sort();
    expect(applied).toHaveLength(2);
    for (const line of applied) expect(line).toMatch(/^ {2}worker \S+: applied \(changed /);
    expect(applied[0]?.replace(/worker \S+:/, 'worker X:')).toBe(ackApplied('worker', 'X', [MODE_PATH]));

    // Every later turn delegates, until each worker has been seen answering one (requests name their worker).
    const start = h.server.requests.length;
    const seen = () =>
      new Set(
        h.server.requests
          .slice(start)
          .filter((r) => r.body.model === 'fake-model')
          .map(workerOf),
      );
    for (let round = 0; round < 20 && seen().size < 2; round++) {
      for (const text of await ask(4))
        expect(text).toBe("result: [Agent 'helper' (custom/helper-model)]\nhelper says hi");
    }
    expect([...seen()].sort()).toEqual(['worker-alpha-process', 'worker-bravo-process']);
  }, 120_000);

  it('exits non-zero with a clear message when Redis is unreachable', async () => {
    const unreachable = join(h.dataDir, 'unreachable.toml');
    writeFileSync(unreachable, '[redis]\nurl = "redis://127.0.0.1:1"\nprefix = "nowhere"\n');
    const res = await runCli(['reload', '-c', unreachable]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error: Cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(\[redis\] url\)/);
  });
});
