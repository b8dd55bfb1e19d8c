// Slack payloads → baton events and baton messages → Slack arguments (pure mapping rules).

import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { type InboundContext, mapAction, mapMessage } from '../../../channels/slack/inbound.ts';
import { buildBlocks, escapeText, mapSendError } from '../../../channels/slack/outbound.ts';
import { ChannelRateLimitError } from '../../../src/channel-host/types.ts';

const ctx = (over: Partial<InboundContext> = {}): InboundContext => ({
  channelKey: 'slack.t',
  botUserId: 'U0BOT',
  botId: 'B0BOT',
  threadReplies: true,
  channelIds: new Set(),
  ...over,
});
const msg = (over: Record<string, unknown> = {}) => ({
  type: 'message',
  channel: 'C1',
  user: 'U0ALICE',
  text: 'hi',
  ts: '100.1',
  channel_type: 'channel',
  ...over,
});

describe('slack inbound mapping', () => {
  it('threads channel messages (thread_replies), keeps DMs whole, and follows an existing thread', () => {
    expect(mapMessage(msg(), ctx())).toMatchObject({
      ok: true,
      event: { thread: '100.1', eventId: 'C1:100.1' },
    });
    const flat = mapMessage(msg(), ctx({ threadReplies: false }));
    expect(flat.ok && flat.event.thread).toBeUndefined();
    const dm = mapMessage(msg({ channel: 'D1', channel_type: 'im' }), ctx());
    expect(dm).toMatchObject({ ok: true, event: { isDirect: true } });
    expect(dm.ok && dm.event.thread).toBeUndefined();
    const inThread = mapMessage(msg({ thread_ts: '99.0' }), ctx({ threadReplies: false }));
    expect(inThread).toMatchObject({ ok: true, event: { thread: '99.0' } });
  });

  it('marks mentions, app_mention and replies in a thread the bot started as addressed to the bot', () => {
    expect(mapMessage(msg(), ctx())).toMatchObject({ ok: true, event: { addressedToBot: false } });
    expect(mapMessage(msg({ text: '<@U0BOT> do it' }), ctx())).toMatchObject({
      ok: true,
      event: { addressedToBot: true, text: 'do it' },
    });
    expect(mapMessage(msg({ type: 'app_mention', channel_type: undefined }), ctx())).toMatchObject({
      ok: true,
      event: { addressedToBot: true },
    });
    expect(mapMessage(msg({ thread_ts: '1.0', parent_user_id: 'U0BOT' }), ctx())).toMatchObject({
      ok: true,
      event: { addressedToBot: true },
    });
  });

  it('skips subtypes, bots, itself, unserved channels and malformed events; keeps file shares', () => {
    for (const raw of [
      msg({ subtype: 'message_changed' }),
      msg({ subtype: 'bot_message', bot_id: 'B1' }),
      msg({ bot_id: 'B1' }),
      msg({ user: 'U0BOT' }),
      msg({ text: '' }),
      { type: 'message', channel: 'C1' },
      null,
    ]) {
      expect(mapMessage(raw, ctx()).ok).toBe(false);
    }
    expect(mapMessage(msg({ channel: 'C9' }), ctx({ channelIds: new Set(['C1']) })).ok).toBe(false);
    expect(
      mapMessage(msg({ channel: 'D9', channel_type: 'im' }), ctx({ channelIds: new Set(['C1']) })).ok,
    ).toBe(true);
    expect(mapMessage(msg({ subtype: 'file_share', text: '', files: [{}] }), ctx())).toMatchObject({
      ok: true,
      event: { text: '', attachments: [{ kind: 'file', name: 'file-1' }] },
    });
    expect(mapMessage(msg({ text: 'a &lt;b&gt; &amp;' }), ctx())).toMatchObject({
      ok: true,
      event: { text: 'a <b> &' },
    });
  });

  it('maps a block_actions press to an action on the message and its thread', () => {
    const press = {
      type: 'block_actions',
      trigger_id: 'trig-1',
      user: { id: 'U0ALICE', username: 'alice' },
      container: { message_ts: '5.5', channel_id: 'C1' },
      message: { ts: '5.5', thread_ts: '4.4' },
      actions: [{ action_id: 'ap:1', action_ts: '6.6' }],
    };
    expect(mapAction(press, ctx())).toMatchObject({
      ok: true,
      event: {
        kind: 'action',
        eventId: 'trig-1',
        chat: 'C1',
        thread: '4.4',
        actionId: 'ap:1',
        messageId: '5.5',
      },
    });
    expect(mapAction({ ...press, actions: [] }, ctx()).ok).toBe(false);
    expect(mapAction({ ...press, type: 'view_submission' }, ctx()).ok).toBe(false);
  });
});

describe('slack outbound mapping', () => {
  it('escapes text so a reply cannot ping <!channel>', () => {
    expect(escapeText('<!channel> & <@U1>')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt;');
  });

  it('builds no blocks without buttons, and one actions block per row with them', () => {
    expect(buildBlocks({ text: 'x' })).toBeUndefined();
    expect(buildBlocks({ text: 'x', buttons: [[]] })).toBeUndefined();
    const blocks = buildBlocks({
      text: 'x',
      buttons: [[{ id: 'a', label: 'A' }], [{ id: 'b', label: 'B', style: 'danger' }]],
    });
    expect(blocks?.map((b) => b.type)).toEqual(['section', 'actions', 'actions']);
  });

  it('maps a surfaced 429 to ChannelRateLimitError in milliseconds and leaves other errors alone', () => {
    const mapped = mapSendError(new webApi.WebAPIRateLimitedError(7));
    expect(mapped).toBeInstanceOf(ChannelRateLimitError);
    expect((mapped as ChannelRateLimitError).retryAfterMs).toBe(7000);
    const other = new Error('boom');
    expect(mapSendError(other)).toBe(other);
  });
});
