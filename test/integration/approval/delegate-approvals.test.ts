// An independent delegated child whose target profile has a complete route asks that route (approvals.md §7):
// the card names the target and its caller, the target's peers answer, and the call runs only then.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeDenialText } from '../../../src/approval/approval-messages.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { cardIn, press, replyIn, settledCard } from './approval-helpers.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0

[risk_profiles.default]
auto_approve = ["delegate"]
delegation_policy = { mode = "allow" }

[risk_profiles.guarded]
always_ask = ["file_write"]

[risk_profiles.guarded.approval_route]
approver_channel = "local.test"
approver_recipient = "ops-room"

[risk_profiles.unheard]
always_ask = ["file_write"]

[risk_profiles.unheard.approval_route]
approver_channel = "local.gone"
approver_recipient = "ops-room"
on_no_approver = "inherit-originator"

[runtime_profiles.agentic]
agentic = true
max_tool_iterations = 3

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
delegates = [{ agent = "indie", mode = "independent" }, { agent = "unheard", mode = "independent" }]

[agents.indie]
model_provider = "custom.fake"
risk_profile = "guarded"
runtime_profile = "agentic"

[agents.unheard]
model_provider = "custom.fake"
risk_profile = "unheard"
runtime_profile = "agentic"

[peer_groups.dev]
channel = "local.test"
agents = ["main"]
external_peers = ["alice"]

[peer_groups.ops]
channel = "local.test"
agents = ["indie"]
external_peers = ["opsbob"]
`;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('delegate-approvals', TOML);
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
});

describe('independent delegate with a complete route', () => {
  it("asks the target's route, names target and caller, and only the target's peers decide", async () => {
    h.server.script([
      { toolCalls: [{ name: 'delegate', arguments: { agent: 'indie', prompt: 'write the note' } }] },
      { toolCalls: [{ name: 'file_write', arguments: { path: 'note.txt', content: 'hi' } }] },
      { text: 'written' },
      { text: 'done' },
    ]);
    await h.local.inject({ chat: 'dev', text: 'delegate it', senderId: 'alice' });
    const card = await cardIn(h, 'ops-room');
    expect(card.text).toContain('Agent: indie (delegated by main)');
    // alice may talk to main, but is no peer of the gated agent (the target).
    expect(await press(h, card, 'approve', 'alice')).toMatchObject({
      notice: '⚠️ You are not authorized to answer this approval request.',
    });
    expect(await press(h, card, 'approve', 'opsbob')).toMatchObject({ notice: '✅ Approved' });
    await h.server.waitForRequests(3, 30_000);
    expect(toolResultsOf(h.server.requests[2]!).at(-1)?.content).toMatch(/^Wrote 2 bytes to .*note\.txt$/);
    expect(await settledCard(card)).toContain('✅ Approved by opsbob');
    await replyIn(h, 'dev', 'done');
    expect(h.local.replies.filter((r) => r.to.chat === 'dev').map((r) => r.text)).toEqual(['done']);
  });

  it('asks for shell too: the route gate of an independent child is not shell-exempt', async () => {
    h.server.script([
      { toolCalls: [{ name: 'delegate', arguments: { agent: 'indie', prompt: 'list files' } }] },
      { toolCalls: [{ name: 'shell', arguments: { command: 'ls' } }] },
      { text: 'not listed' },
      { text: 'done' },
    ]);
    await h.local.inject({ chat: 'dev3', text: 'delegate it', senderId: 'alice' });
    const card = await cardIn(h, 'ops-room');
    expect(card.text).toContain('Tool: shell');
    expect(card.text).toContain('Args: command: ls');
    await press(h, card, 'deny', 'opsbob');
    await replyIn(h, 'dev3', 'done');
    expect(toolResultsOf(h.server.requests[2]!).at(-1)?.content).toBe('Error: Denied by user.');
  });

  it('denies when the route cannot answer, even with inherit-originator: a child has no originating chat', async () => {
    h.server.script([
      { toolCalls: [{ name: 'delegate', arguments: { agent: 'unheard', prompt: 'write the note' } }] },
      { toolCalls: [{ name: 'file_write', arguments: { path: 'no.txt', content: 'hi' } }] },
      { text: 'not written' },
      { text: 'done' },
    ]);
    await h.local.inject({ chat: 'dev2', text: 'delegate it', senderId: 'alice' });
    await replyIn(h, 'dev2', 'done');
    expect(toolResultsOf(h.server.requests[2]!).at(-1)?.content).toBe(
      `Error: ${runtimeDenialText('file_write')}`,
    );
    expect(h.local.replies.map((r) => r.text)).toEqual(['done']); // nobody was asked
  });
});
