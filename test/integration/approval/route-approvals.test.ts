// Approval routes on the runtime (approvals.md §6, §13): the ops room is asked instead of the originating chat,
// timeouts and a channel no gateway holds are runtime denials, inherit-originator falls back to the chat.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runtimeDenialText } from '../../../src/approval/approval-messages.ts';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { cardIn, press, replyIn, scriptWrites, settledCard, toldModel } from './approval-helpers.ts';

const route = (channel: string, opts: { timeout?: number; onNoApprover?: string } = {}) => `
[risk_profiles.default.approval_route]
approver_channel = "${channel}"
approver_recipient = "ops-room"
timeout_secs = ${opts.timeout ?? 60}
on_no_approver = "${opts.onNoApprover ?? 'deny'}"
`;

/** A harness per route: alice talks to main, opsbob answers in the ops room (both are peers of local.test). */
function withRoute(name: string, toml: string): () => RuntimeHarness {
  let h: RuntimeHarness;
  beforeAll(async () => {
    h = await createRuntimeHarness(name, runtimeToml(toml, ['alice', 'opsbob']));
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.server.reset();
    h.local.replies.length = 0;
  });
  return () => h;
}

const say = (h: RuntimeHarness, chat: string, text: string) =>
  h.local.inject({ chat, text, senderId: 'alice' });
const RUNTIME_DENIAL = `Error: ${runtimeDenialText('file_write')}`;

describe('a route to the ops room', () => {
  const get = withRoute('route-ops', route('local.test'));

  it('asks the ops room (with the Agent: line), never the originating chat; its answer decides', async () => {
    const h = get();
    scriptWrites(h, 'r1.txt');
    await say(h, 'dev', 'write it');
    const card = await cardIn(h, 'ops-room');
    expect(card.text).toContain('Agent: main');
    expect(await press(h, card, 'approve', 'opsbob')).toMatchObject({ notice: '✅ Approved' });
    expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*r1\.txt$/);
    expect(await settledCard(card)).toContain('✅ Approved by opsbob');
    await replyIn(h, 'dev', 'done');
    expect(h.local.replies.filter((r) => r.to.chat === 'dev').map((r) => r.text)).toEqual(['done']);
  });
});

describe('a route whose approver stays silent', () => {
  // 3 s: room for the card to be posted first on a loaded machine (max(timeout_secs, 1) is the rule).
  const get = withRoute('route-timeout', route('local.test', { timeout: 3 }));

  it('expires after max(timeout_secs, 1): a runtime denial, the card shows it, the audit says timed_out', async () => {
    const h = get();
    scriptWrites(h, 't1.txt');
    await say(h, 'dev', 'write it');
    const card = await cardIn(h, 'ops-room');
    expect(await toldModel(h)).toBe(RUNTIME_DENIAL);
    expect(await settledCard(card)).toContain('⌛ Expired: no decision was made in time');
    const store = createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
    const [rec] = await store.listAudit(1);
    expect(rec).toMatchObject({ status: 'expired', source: 'timed_out', tool: 'file_write', agent: 'main' });
    await replyIn(h, 'dev', 'done');
  });
});

describe('a route to a channel no gateway holds', () => {
  const get = withRoute('route-down', route('local.gone'));

  it('on_no_approver = "deny": a runtime denial, and nobody is asked', async () => {
    const h = get();
    scriptWrites(h, 'n1.txt');
    await say(h, 'dev', 'write it');
    expect(await toldModel(h)).toBe(RUNTIME_DENIAL);
    await replyIn(h, 'dev', 'done');
    expect(h.local.replies.map((r) => r.text)).toEqual(['done']);
  });
});

describe('a route to a channel no gateway holds, inheriting the originator', () => {
  const get = withRoute('route-inherit', route('local.gone', { onNoApprover: 'inherit-originator' }));

  it('asks the originating chat instead (no Agent: line), and an answer there decides', async () => {
    const h = get();
    scriptWrites(h, 'i1.txt');
    await say(h, 'dev', 'write it');
    const card = await cardIn(h, 'dev');
    expect(card.text).not.toContain('Agent:');
    // Not alice's: the requester never answers a routed approval (requester-approvals.test.ts).
    await press(h, card, 'approve', 'opsbob');
    expect(await toldModel(h)).toMatch(/^Wrote 2 bytes to .*i1\.txt$/);
    await replyIn(h, 'dev', 'done');
    await waitFor(() => card.buttons.length === 0, 20_000, 'buttons removed');
  });
});
