// approvals.md §3: an "Always" given to a delegated child covers that child run only. Its later calls of the
// tool run unasked; a parallel sibling (delegate.md §13, children of one call) and the next run still ask.
// `file_write` is gated by the supervised default (not always_ask, which would ignore Always: §2 rule 2).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LocalReply } from '../../../channels/local/local-adapter.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { cardIn, press, replyIn, settledCard, writeCall } from './approval-helpers.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[providers.models.custom.solo]
uri = "\${MODEL_URI}"
model = "solo-model"

[providers.models.custom.twin]
uri = "\${MODEL_URI}"
model = "twin-model"

[reliability]
provider_retries = 0

[risk_profiles.default]
auto_approve = ["delegate"]
delegation_policy = { mode = "allow" }

[risk_profiles.routed.approval_route]
approver_channel = "local.test"
approver_recipient = "ops-room"

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 5

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
delegates = [{ agent = "solo", mode = "independent" }, { agent = "twin", mode = "independent" }]

[agents.solo]
model_provider = "custom.solo"
risk_profile = "routed"
runtime_profile = "agentic"

[agents.twin]
model_provider = "custom.twin"
risk_profile = "routed"
runtime_profile = "agentic"

[peer_groups.dev]
channel = "local.test"
agents = ["main"]
external_peers = ["alice"]

[peer_groups.ops]
channel = "local.test"
agents = ["solo", "twin"]
external_peers = ["opsbob"]
`;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('delegate-always', TOML);
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
});

/** The requests each child (told apart by its model id) sent, in order. */
const requestsOf = (model: string) => h.server.requests.filter((r) => r.body.model === model);
/** What the child was told as the result of its last tool call, in its `i`-th request (0-based). */
async function childTold(model: string, i: number): Promise<string> {
  await waitFor(() => requestsOf(model).length > i, 30_000, `${model} request ${i + 1}`);
  return toolResultsOf(requestsOf(model)[i]!).at(-1)?.content ?? '';
}
const cards = () =>
  h.local.replies.filter(
    (r) =>
      r.to.chat === 'ops-room' && r.versions[0]?.buttons?.flat().some((b) => b.id.startsWith('approval:')),
  );
const cardOf = (agent: string): LocalReply | undefined =>
  cards().find((c) => c.text.includes(`Agent: ${agent} (delegated by main)`));

describe('"Always" in a delegated child', () => {
  it("covers the rest of that child run only: not the parallel sibling, not the next run's child", async () => {
    h.server.script([
      { toolCalls: [{ name: 'delegate', arguments: { parallel: ['solo', 'twin'], prompt: 'write notes' } }] },
      { text: 'done' },
      { toolCalls: [{ name: 'delegate', arguments: { agent: 'solo', prompt: 'write again' } }] },
      { text: 'done' },
    ]);
    h.server.script([writeCall('a.txt'), writeCall('b.txt'), { text: 'solo wrote' }], {
      model: 'solo-model',
    });
    h.server.script([writeCall('c.txt'), { text: 'solo again' }], { model: 'solo-model' });
    h.server.script([writeCall('x.txt'), writeCall('y.txt'), { text: 'twin wrote' }], {
      model: 'twin-model',
    });

    await h.local.inject({ chat: 'dev', text: 'delegate it', senderId: 'alice' });
    // Both children ask for their first write (in either order).
    await cardIn(h, 'ops-room', 2);
    const soloCard = cardOf('solo')!;
    const twinFirst = cardOf('twin')!;
    expect(soloCard.text).toContain('Tool: file_write');
    expect(twinFirst.text).toContain('Tool: file_write');

    expect(await press(h, soloCard, 'always', 'opsbob')).toMatchObject({ notice: '✅✅ Always approved' });
    expect(await settledCard(soloCard)).toContain('✅✅ Always approved by opsbob');
    expect(await childTold('solo-model', 1)).toMatch(/^Wrote 2 bytes to .*a\.txt$/);
    // The second write of the same child run runs without a new card.
    expect(await childTold('solo-model', 2)).toMatch(/^Wrote 2 bytes to .*b\.txt$/);
    expect(cards()).toHaveLength(2);

    // The sibling's next write, asked after solo's Always, gets its own card.
    await press(h, twinFirst, 'approve', 'opsbob');
    expect(await childTold('twin-model', 1)).toMatch(/^Wrote 2 bytes to .*x\.txt$/);
    const twinSecond = await cardIn(h, 'ops-room', 3);
    expect(twinSecond.text).toContain('Agent: twin (delegated by main)');
    expect(twinSecond.text).toContain('Tool: file_write');
    await press(h, twinSecond, 'approve', 'opsbob');
    expect(await childTold('twin-model', 2)).toMatch(/^Wrote 2 bytes to .*y\.txt$/);

    await replyIn(h, 'dev', 'done');
    const parallelResult = toolResultsOf(requestsOf('fake-model')[1]!).at(-1)?.content ?? '';
    expect(parallelResult.startsWith('[Parallel delegation: 2 agents]\n\n--- solo (success=true) ---')).toBe(
      true,
    );
    expect(parallelResult).toContain('solo wrote');
    expect(parallelResult).toContain('--- twin (success=true) ---');
    expect(parallelResult).toContain('twin wrote');
    expect(cards()).toHaveLength(3);

    // The next run (a new message) delegates to solo again: a fresh gate asks again.
    await h.local.inject({ chat: 'dev', text: 'once more', senderId: 'alice' });
    const soloAgain = await cardIn(h, 'ops-room', 4);
    expect(soloAgain.text).toContain('Agent: solo (delegated by main)');
    await press(h, soloAgain, 'deny', 'opsbob');
    expect(await childTold('solo-model', 4)).toBe('Error: Denied by user.');
    await replyIn(h, 'dev', 'done', 2);
    expect(cards()).toHaveLength(4);
  }, 90_000); // several approval round trips on a shared, loaded machine
});
