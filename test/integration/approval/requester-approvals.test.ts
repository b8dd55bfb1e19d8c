// Who may answer a routed approval (approvals.md §11, config.md §13): never the user whose message started the
// run, not even in the inherit-originator fallback prompt in their own chat; a group's `approvers` (not its
// `external_peers`) answer when it has them. Through the runtime: the fake model asks, the local channel presses.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { isAuthorised } from '../../../src/channel-host/peer-authz.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { cardIn, press, replyIn, scriptWrites, settledCard, toldModel } from './approval-helpers.ts';

const UNAUTHORISED = '⚠️ You are not authorized to answer this approval request.';

const route = (timeout: number, onNoApprover: string) => `
[risk_profiles.default.approval_route]
approver_channel = "local.test"
approver_recipient = "ops-room"
timeout_secs = ${timeout}
on_no_approver = "${onNoApprover}"
`;

/** alice and dave talk to main (the local group, no approvers); carol only approves. */
const APPROVERS = `
[peer_groups.approvers]
channel = "local.test"
agents = ["main"]
approvers = ["carol"]
`;

function harness(name: string, toml: string, peers: string[]): () => RuntimeHarness {
  let h: RuntimeHarness;
  beforeAll(async () => {
    h = await createRuntimeHarness(name, runtimeToml(toml, peers));
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.server.reset();
    h.local.replies.length = 0;
  });
  return () => h;
}

const storeOf = (h: RuntimeHarness) =>
  createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });

describe('inherit-originator: the ops room times out, the prompt falls back to the requester chat', () => {
  // 1 s: the shortest route wait (max(timeout_secs, 1)); the fallback prompt then waits 120 s in the chat.
  const get = harness('requester-fallback', `${route(1, 'inherit-originator')}${APPROVERS}`, ['alice']);

  it('refuses the requester (verbatim text, still pending); an approver listed for that chat approves', async () => {
    const h = get();
    scriptWrites(h, 'self.txt');
    await h.local.inject({ chat: 'dev', text: 'write it', senderId: 'alice' });
    await cardIn(h, 'ops-room');
    const card = await cardIn(h, 'dev');
    expect(card.text).not.toContain('Agent:');
    const store = storeOf(h);
    const [rec] = await store.listPending(1);
    expect(rec).toMatchObject({ channel: 'local.test', requester: { channel: 'local.test', user: 'alice' } });

    // alice is a peer of the group that has no approvers (so external_peers approve), yet she asked.
    expect(await press(h, card, 'approve', 'alice')).toMatchObject({ notice: UNAUTHORISED });
    expect(await press(h, card, 'always', 'alice')).toMatchObject({ notice: UNAUTHORISED });
    expect((await store.get(rec!.approval_id))?.status).toBe('pending');

    expect(await press(h, card, 'approve', 'carol')).toMatchObject({ notice: '✅ Approved' });
    expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*self\.txt$/);
    expect(await settledCard(card)).toContain('✅ Approved by carol');
    await replyIn(h, 'dev', 'done');
  });
});

/** One group for local.test: alice and dave talk, carol answers approvals. */
const SEPARATE = `
[peer_groups.ops]
channel = "local.test"
agents = ["main"]
external_peers = ["alice", "dave"]
approvers = ["carol"]
`;

describe('a group with approvers: talking and approving are separate lists', () => {
  const get = harness('requester-approvers', `${route(120, 'deny')}${SEPARATE}`, []);

  it('a talker who is not an approver is refused in the ops room; the approver decides', async () => {
    const h = get();
    scriptWrites(h, 'sep.txt');
    await h.local.inject({ chat: 'dev', text: 'write it', senderId: 'alice' });
    const card = await cardIn(h, 'ops-room');
    // dave may talk to main but is no approver; alice asked.
    expect(await press(h, card, 'approve', 'dave')).toMatchObject({ notice: UNAUTHORISED });
    expect(await press(h, card, 'approve', 'alice')).toMatchObject({ notice: UNAUTHORISED });
    const store = storeOf(h);
    const [rec] = await store.listPending(1);
    expect(rec?.status).toBe('pending');
    expect(await press(h, card, 'deny', 'carol')).toMatchObject({ notice: '❌ Denied' });
    expect(await toldModel(h)).toBe('Error: Denied by user.');
    await replyIn(h, 'dev', 'done');
    await waitFor(() => card.buttons.length === 0, 20_000, 'buttons removed');
    // carol approves but may not talk: approvers grant no chat.
    expect(isAuthorised(h.config, 'local.test', 'main', { id: 'carol' })).toBe(false);
    expect(isAuthorised(h.config, 'local.test', 'main', { id: 'dave' })).toBe(true);
  });
});
