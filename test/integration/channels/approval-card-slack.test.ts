// An approval prompt through the real Slack adapter (Bolt, Socket Mode) against the fake Slack (approvals.md
// §12.4): plain text, mrkdwn section and actions block on the wire (action_id carries the token, value the approval
// id), a press back as an action the parser reads, and the outcome edit that drops the actions block.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { summarizeArgs } from '../../../src/approval/args-summary.ts';
import { type ApprovalCard, renderApprovalCard, renderDecidedCard } from '../../../src/approval/card.ts';
import type { ChannelAdapter, InboundAction } from '../../../src/channel-host/types.ts';
import { dialectOf } from '../../../src/roles/platforms.ts';
import { nextTs } from '../../fakes/slack-payloads.ts';
import type { FakeSlackServer } from '../../fakes/slack-server.ts';
import { waitFor } from '../../helpers/wait.ts';
import { recordingHost, slackSocketOnFake } from './on-fake.ts';

const CHANNEL = 'C0APPROVE';

let fake: FakeSlackServer;
let adapter: ChannelAdapter;
let stop: () => Promise<void>;
const { host, events } = recordingHost();

beforeEach(async () => {
  events.length = 0;
  ({ fake, adapter, stop } = await slackSocketOnFake(host, 'ops', 'approve'));
});
afterEach(() => stop());

const card = (): ApprovalCard => ({
  approvalId: randomUUID(),
  replyToken: 'm4n5b6',
  tool: 'http_request',
  argsSummary: 'url: https://example.com/?a=1&b=<2>, api_key: [redacted]',
  agent: { name: 'fetcher', caller: 'main' },
  group: true,
});
type Block = { type: string; text?: { type: string; text: string }; elements?: Record<string, unknown>[] };
const press = () => events.find((e): e is InboundAction => e.kind === 'action');

describe('approval card on Slack', () => {
  it('posts text, a mrkdwn section and the actions block; a press parses back; the outcome edit drops the buttons', async () => {
    const c = card();
    const thread = nextTs();
    const ref = await adapter.send(
      { channel: 'slack.ops', chat: CHANNEL, thread },
      renderApprovalCard(dialectOf('slack'), c),
    );
    const posted = fake.callsOf('chat.postMessage')[0]!.params;
    expect(posted.thread_ts).toBe(thread);
    // Slack's own escaping of &, < and > is the only change to the spec's text.
    expect(posted.text).toBe(
      'APPROVAL REQUIRED [m4n5b6]\nTool: http_request\nAgent: fetcher (delegated by main)\nArgs: url: https://example.com/?a=1&amp;b=&lt;2&gt;, api_key: [redacted]',
    );
    const blocks = posted.blocks as Block[];
    expect(blocks.map((b) => b.type)).toEqual(['section', 'actions']);
    expect(blocks[0]!.text).toEqual({
      type: 'mrkdwn',
      text: '*APPROVAL REQUIRED* [`m4n5b6`]\n*Tool:* `http_request`\n*Agent:* fetcher (delegated by main)\n*Args:* url: https://example.com/?a=1&amp;b=&lt;2&gt;, api_key: [redacted]',
    });
    expect(
      blocks[1]!.elements!.map((e) => [(e.text as { text: string }).text, e.style, e.action_id, e.value]),
    ).toEqual([
      ['Approve', 'primary', 'approval_m4n5b6_approve', c.approvalId],
      ['Deny', 'danger', 'approval_m4n5b6_deny', c.approvalId],
      ['Always', undefined, 'approval_m4n5b6_always', c.approvalId],
    ]);

    fake.press({
      messageTs: ref.messageId,
      actionId: 'approval_m4n5b6_approve',
      user: 'U0BOB',
      username: 'bob',
    });
    await waitFor(() => press() !== undefined, 20_000, 'the press at the host');
    expect(press()).toMatchObject({
      chat: CHANNEL,
      thread,
      messageId: ref.messageId,
      sender: { id: 'U0BOB' },
      value: c.approvalId,
    });
    expect(dialectOf('slack').parseApprovalPress(press()!.actionId, press()!.value)).toEqual({
      approvalId: c.approvalId,
      action: 'approve',
      token: 'm4n5b6',
    });

    await adapter.edit(ref, renderDecidedCard(dialectOf('slack'), c, { kind: 'approved', by: 'bob' }));
    const msg = fake.messages.find((m) => m.ts === ref.messageId)!;
    expect(msg.blocks).toEqual([]);
    expect(msg.text).toBe(
      '*APPROVAL REQUIRED* [`m4n5b6`]\n*Tool:* `http_request`\n*Agent:* fetcher (delegated by main)\n*Args:* url: https://example.com/?a=1&amp;b=&lt;2&gt;, api_key: [redacted]\n\n✅ Approved by bob',
    );
  });

  it('keeps hostile argument values on the Args line: no link, mention or extra line (approvals.md §4, §12.4)', async () => {
    const c = {
      ...card(),
      argsSummary: summarizeArgs({
        path: '/tmp/x\n*Tool:* `file_read`',
        content: '*bold* <https://evil.example|click> <!channel> `tick` &amp;\u200b',
      }),
    };
    await adapter.send({ channel: 'slack.ops', chat: CHANNEL }, renderApprovalCard(dialectOf('slack'), c));
    const posted = fake.callsOf('chat.postMessage')[0]!.params;
    const section = (posted.blocks as Block[])[0]!.text!;
    expect(section.type).toBe('mrkdwn');
    const lines = section.text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(
      '*Args:* path: /tmp/x\\n*Tool:* `file_read`, content: *bold* &lt;https://evil.example|click&gt; &lt;!channel&gt; `tick` &amp;amp;\\u200b',
    );
    expect(String(posted.text).split('\n')).toHaveLength(4);
    expect(String(posted.text)).not.toMatch(/<[^&]/);
  });

  it('the text-mode fallback goes out as its text, without blocks (no Markdown conversion of the args)', async () => {
    const c = { ...card(), argsSummary: 'path: /a/b_c*d*.txt, content: **hi**' };
    const msg = renderApprovalCard('text', c);
    await adapter.send({ channel: 'slack.ops', chat: CHANNEL }, msg);
    const posted = fake.callsOf('chat.postMessage')[0]!.params;
    expect(posted.blocks).toBeUndefined();
    expect(posted.text).toBe(
      'APPROVAL REQUIRED [m4n5b6]\nTool: http_request\nAgent: fetcher (delegated by main)\nArgs: path: /a/b_c*d*.txt, content: **hi**\n\nReply: "m4n5b6 yes", "m4n5b6 no", or "m4n5b6 always"\n\nThis is a group chat, so everyone here can see this code and the tool arguments shown above. Only an authorized peer for this channel can answer.',
    );
  });

  it('a press whose value was tampered with does not parse', async () => {
    const c = card();
    const ref = await adapter.send(
      { channel: 'slack.ops', chat: CHANNEL },
      renderApprovalCard(dialectOf('slack'), c),
    );
    fake.press({
      messageTs: ref.messageId,
      actionId: 'approval_m4n5b6_deny',
      value: 'not-an-approval',
      user: 'U0BOB',
    });
    await waitFor(() => press() !== undefined, 20_000, 'the press at the host');
    expect(press()!.value).toBe('not-an-approval');
    expect(dialectOf('slack').parseApprovalPress(press()!.actionId, press()!.value)).toBeNull();
  });
});
