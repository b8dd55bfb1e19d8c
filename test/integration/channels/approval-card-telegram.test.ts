// An approval prompt through the real Telegram adapter (grammy) against the fake Bot API (approvals.md §12.2):
// HTML card with its inline keyboard on the wire, a press back as an action the parser reads, the outcome edit.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summarizeArgs } from '../../../src/approval/args-summary.ts';
import { type ApprovalCard, renderApprovalCard, renderDecidedCard } from '../../../src/approval/card.ts';
import type { ChannelAdapter, InboundAction } from '../../../src/channel-host/types.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';
import type { FakeTelegram } from '../../fakes/telegram-server.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { waitFor } from '../../helpers/wait.ts';
import { recordingHost, telegramOnFake } from './on-fake.ts';

const BOB = user(8, 'bob');
const FORUM = { id: -1001, type: 'supergroup' as const, is_forum: true, title: 'ops' };
const TOPIC = 3;

let tg: FakeTelegram;
let adapter: ChannelAdapter;
let stop: () => Promise<void>;
const { host, events } = recordingHost();

beforeEach(async () => {
  events.length = 0;
  ({ fake: tg, adapter, stop } = await telegramOnFake(host, 'ops'));
});
afterEach(() => stop());

const card = (): ApprovalCard => ({
  approvalId: randomUUID(),
  replyToken: 'q7w8e9',
  tool: 'file_write',
  argsSummary: 'path: /tmp/<a>&b, content: hi',
  agent: { name: 'coder', caller: 'main' },
  group: true,
});
const to = { channel: 'telegram.ops', chat: String(FORUM.id), thread: String(TOPIC) };

describe('approval card on Telegram', () => {
  it('goes out as HTML with one row of callback buttons; a press parses back; the outcome edit drops the keyboard', async () => {
    const c = card();
    const msg = renderApprovalCard(dialectOf('telegram'), c);
    const ref = await adapter.send(to, msg);

    const call = await tg.waitForCall((x) => x.method === 'sendMessage', 20_000, 'sendMessage');
    expect(call.params).toMatchObject({ parse_mode: 'HTML', text: msg.markup, message_thread_id: TOPIC });
    const sent = tg.sent.find((s) => String(s.message.message_id) === ref.messageId)!;
    // What the chat shows once Telegram parsed the HTML: exactly the plain text of the card.
    expect(sent.message.text).toBe(
      '🔧 Tool approval required\n\nTool: file_write\nAgent: coder (delegated by main)\nArgs: path: /tmp/<a>&b, content: hi\n\nTap a button below:',
    );
    expect(sent.message.reply_markup?.inline_keyboard).toEqual([
      [
        { text: '✅ Approve', callback_data: `approval:${c.approvalId}:approve` },
        { text: '❌ Deny', callback_data: `approval:${c.approvalId}:deny` },
        { text: '✅✅ Always', callback_data: `approval:${c.approvalId}:always` },
      ],
    ]);

    tg.injectCallback({ message: sent.message, from: BOB, data: `approval:${c.approvalId}:always` });
    await waitFor(() => events.some((e) => e.kind === 'action'), 20_000, 'the press at the host');
    const press = events.find((e): e is InboundAction => e.kind === 'action')!;
    expect(press).toMatchObject({ chat: String(FORUM.id), thread: String(TOPIC), messageId: ref.messageId });
    expect(press.sender.id).toBe(String(BOB.id));
    expect(dialectOf('telegram').parseApprovalPress(press.actionId, press.value)).toEqual({
      approvalId: c.approvalId,
      action: 'always',
    });

    await adapter.edit(ref, renderDecidedCard(dialectOf('telegram'), c, { kind: 'always', by: 'bob' }));
    const edit = await tg.waitForCall((x) => x.method === 'editMessageText', 20_000, 'editMessageText');
    expect(edit.params.parse_mode).toBe('HTML');
    expect(sent.message.reply_markup).toBeUndefined();
    expect(sent.message.text).toBe(
      '🔧 Tool approval required\n\nTool: file_write\nAgent: coder (delegated by main)\nArgs: path: /tmp/<a>&b, content: hi\n\n✅✅ Always approved by bob',
    );
  });

  it('shows hostile argument values literally: no tag, no entity, no extra line (approvals.md §4, §12.2)', async () => {
    const c = {
      ...card(),
      argsSummary: summarizeArgs({
        path: '/tmp/x\nTool: file_read\nArgs: path: /etc/motd',
        content: '*bold* <a href="https://evil.example">x</a> `tick` </code><b>&amp;\u202e',
      }),
    };
    const msg = renderApprovalCard(dialectOf('telegram'), c);
    const ref = await adapter.send(to, msg);
    const call = await tg.waitForCall((x) => x.method === 'sendMessage', 20_000, 'sendMessage');
    expect(call.params.parse_mode).toBe('HTML');
    expect(String(call.params.text)).toContain(
      'Args: <code>path: /tmp/x\\nTool: file_read\\nArgs: path: /etc/motd, content: *bold* &lt;a href="https://evil.example"&gt;x&lt;/a&gt; `tick` &lt;/code&gt;&lt;b&gt;&amp;amp;\\u202e</code>',
    );
    const sent = tg.sent.find((s) => String(s.message.message_id) === ref.messageId)!;
    expect(sent.message.text).toBe(
      '🔧 Tool approval required\n\nTool: file_write\nAgent: coder (delegated by main)\nArgs: path: /tmp/x\\nTool: file_read\\nArgs: path: /etc/motd, content: *bold* <a href="https://evil.example">x</a> `tick` </code><b>&amp;\\u202e\n\nTap a button below:',
    );
  });

  it('a refused HTML send is retried once as plain text with the same buttons (§12.2 fallback)', async () => {
    const c = card();
    const msg = renderApprovalCard(dialectOf('telegram'), c);
    tg.failNext('sendMessage', { status: 400, description: "Bad Request: can't parse entities: test" });
    const ref = await adapter.send(to, msg);
    const calls = await tg.waitForCalls((x) => x.method === 'sendMessage', 2, 20_000, 'two sends');
    expect(calls[1]!.params.parse_mode).toBeUndefined();
    expect(calls[1]!.params.text).toBe(msg.text);
    const sent = tg.sent.find((s) => String(s.message.message_id) === ref.messageId)!;
    expect(sent.message.text).toBe(msg.text);
    expect(sent.message.reply_markup?.inline_keyboard.flat().map((b) => b.callback_data)).toEqual(
      ['approve', 'deny', 'always'].map((a) => `approval:${c.approvalId}:${a}`),
    );
  });
});
