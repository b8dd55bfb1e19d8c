// An approval prompt through the real Discord adapter (discord.js) against the fake Discord (approvals.md §12.3):
// content and one action row of styled buttons on the wire, a press back as an action the parser reads, the edit.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApprovalCard, renderApprovalCard, renderDecidedCard } from '../../../src/approval/card.ts';
import type { ChannelAdapter, InboundAction } from '../../../src/channel-host/types.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';
import type { FakeDiscordServer } from '../../fakes/discord-server.ts';
import { waitFor } from '../../helpers/wait.ts';
import { discordOnFake, recordingHost } from './on-fake.ts';

const BOB = '100000000000000002';
/** Discord's ButtonStyle numbers. */
const PRIMARY = 1;
const SECONDARY = 2;
const SUCCESS = 3;
const DANGER = 4;

let discord: FakeDiscordServer;
let adapter: ChannelAdapter;
let stop: () => Promise<void>;
const { host, events } = recordingHost();

beforeEach(async () => {
  events.length = 0;
  ({ fake: discord, adapter, stop } = await discordOnFake(host, 'ops'));
});
afterEach(() => stop());

const card = (): ApprovalCard => ({
  approvalId: randomUUID(),
  replyToken: 'z1x2c3',
  tool: 'shell',
  argsSummary: 'command: rm -rf build',
  agent: { name: 'ops' },
  group: true,
});

describe('approval card on Discord', () => {
  it('posts content with four styled apv buttons; a press parses back; the outcome edit removes them', async () => {
    const c = card();
    const ref = await adapter.send(
      { channel: 'discord.ops', chat: discord.threadId },
      renderApprovalCard(dialectOf('discord'), c),
    );
    const wire = discord.messages.get(ref.messageId)!;
    expect(wire.channel_id).toBe(discord.threadId);
    expect(wire.content).toBe('APPROVAL REQUIRED\nTool: shell\nAgent: ops\nArgs: command: rm -rf build');
    expect(wire.components).toHaveLength(1);
    expect(wire.components[0]!.components.map((b) => [b.label, b.style, b.custom_id])).toEqual([
      ['Allow once', SUCCESS, `apv:${c.approvalId}:1`],
      ['Allow this session', PRIMARY, `apv:${c.approvalId}:2`],
      ['Always allow', SECONDARY, `apv:${c.approvalId}:3`],
      ['Deny', DANGER, `apv:${c.approvalId}:0`],
    ]);

    discord.pressButton({
      messageId: ref.messageId,
      customId: `apv:${c.approvalId}:0`,
      userId: BOB,
      username: 'bob',
    });
    await waitFor(() => events.some((e) => e.kind === 'action'), 20_000, 'the press at the host');
    const press = events.find((e): e is InboundAction => e.kind === 'action')!;
    expect(press).toMatchObject({ chat: discord.threadId, messageId: ref.messageId, sender: { id: BOB } });
    expect(dialectOf('discord').parseApprovalPress(press.actionId, press.value)).toEqual({
      approvalId: c.approvalId,
      action: 'deny',
    });

    await adapter.edit(ref, renderDecidedCard(dialectOf('discord'), c, { kind: 'denied', by: 'bob' }));
    const edited = discord.messages.get(ref.messageId)!;
    expect(edited.components).toEqual([]);
    expect(edited.content).toBe(
      'APPROVAL REQUIRED\nTool: shell\nAgent: ops\nArgs: command: rm -rf build\n\n❌ Denied by bob',
    );
  });

  it('the text-mode fallback arrives as written, without components (§12.5)', async () => {
    const msg = renderApprovalCard('text', card());
    const ref = await adapter.send({ channel: 'discord.ops', chat: discord.textChannelId }, msg);
    const wire = discord.messages.get(ref.messageId)!;
    expect(wire.content).toBe(msg.text);
    expect(wire.components).toEqual([]);
  });
});
