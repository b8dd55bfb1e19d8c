// A shell call that `always_ask` lists and the command policy also flags (a write, medium risk) asks once: the
// gate leaves the prompt to the shell tool, whose card names both reasons; one decision, one record.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRuntimeHarness, localPeers, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { fakeModelAgentToml } from '../../helpers/test-config.ts';
import { cardIn, press, replyIn, settledCard, toldModel } from './approval-helpers.ts';

const TOML = `${fakeModelAgentToml(`\${MODEL_URI}`).replace(
  '[risk_profiles.default]\n',
  '[risk_profiles.default]\nalways_ask = ["shell"]\nallowed_commands = ["touch", "ls", "rm"]\nblock_high_risk_commands = true\n',
)}${localPeers(['alice'])}`;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('shell-one-prompt', TOML);
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
});

const store = () => createApprovalStore({ redis: h.redis, prefix: h.prefix, logger: createSilentLogger() });
const shell = (command: string) => ({ toolCalls: [{ name: 'shell', arguments: { command } }] });
const cards = (chat: string) =>
  h.local.replies.filter(
    (r) => r.to.chat === chat && r.versions[0]?.buttons?.flat().some((b) => b.id.startsWith('approval:')),
  );
const idOf = (card: { versions: { buttons?: { id: string }[][] }[] }) =>
  card.versions[0]!.buttons!.flat()[0]!.id.split(':')[1]!;

describe('always_ask = ["shell"] and the command policy', () => {
  it('a write asks once: one card with both reasons, one decision, one record', async () => {
    h.server.script([shell('touch once.txt'), { text: 'done' }]);
    await h.local.inject({ chat: 'sh1', text: 'touch it', senderId: 'alice' });
    const card = await cardIn(h, 'sh1');
    expect(card.text).toContain('Tool: shell');
    expect(card.text).toContain('Args: command: touch once.txt');
    expect(card.text).toContain('Reason: always_ask lists shell; the command may write');
    await press(h, card, 'approve', 'alice');
    expect(await toldModel(h)).toBe(''); // ran: touch prints nothing (a refusal or denial would say so)
    await replyIn(h, 'sh1', 'done');
    expect(await settledCard(card)).toContain('✅ Approved by alice');
    expect(cards('sh1')).toHaveLength(1);

    const audit = await store().listAudit();
    const mine = audit.filter((r) => r.destination.chat === 'sh1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      approval_id: idOf(card),
      status: 'approved',
      tool: 'shell',
      args_summary: 'command: touch once.txt',
      reasons: ['always_ask', 'command_writes'],
      source: 'operator',
    });
  });

  it('a low-risk command asks once for always_ask alone', async () => {
    h.server.script([shell('ls'), { text: 'listed' }]);
    await h.local.inject({ chat: 'sh2', text: 'list', senderId: 'alice' });
    const card = await cardIn(h, 'sh2');
    expect(card.text).toContain('Reason: always_ask lists shell\n');
    await press(h, card, 'deny', 'alice');
    expect(await toldModel(h)).toBe('Error: Denied by user.');
    await replyIn(h, 'sh2', 'listed');
    expect(cards('sh2')).toHaveLength(1);
  });

  it('a command the policy refuses is refused without a prompt', async () => {
    h.server.script([shell('rm -rf /'), { text: 'refused' }]);
    await h.local.inject({ chat: 'sh3', text: 'remove', senderId: 'alice' });
    await replyIn(h, 'sh3', 'refused');
    expect(cards('sh3')).toHaveLength(0);
  });
});
