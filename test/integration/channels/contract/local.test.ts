// The channel contract on the local channel: in-process, so it is its own "fake" (replies, presses, refusals).
import { createLocalChannel, type LocalChannel } from '../../../../channels/local/local-adapter.ts';
import { ChannelRateLimitError } from '../../../../src/channel-host/types.ts';
import type { PlatformDriver } from './driver.ts';
import { channelContract } from './suite.ts';

let local: LocalChannel;
/** Texts of the sends refused with a rate limit. */
let refused: string[] = [];

const placeOf = (chat: string, thread?: string) => `${chat}/${thread ?? ''}`;

const driver: PlatformDriver = {
  name: 'local',
  cannot: { 'connection drop': 'the local channel is in-process: it has no connection to drop' },
  async start(host) {
    local = createLocalChannel('contract');
    refused = [];
    await local.start(host);
    return local;
  },
  stop: () => local.stop(),
  async injectText(where, text) {
    const thread = where === 'thread' ? 'topic-1' : undefined;
    // Awaited: the local channel hands the event over synchronously, as a delivered message.
    await local.inject({ chat: 'room', text, senderId: 'alice', ...(thread ? { thread } : {}) });
    return {
      expect: { chat: 'room', ...(thread ? { thread } : {}), isDirect: true, sender: { id: 'alice' } },
      place: placeOf('room', thread),
    };
  },
  sent: () =>
    local.replies.map((r) => ({
      id: r.messageId,
      place: placeOf(r.to.chat, r.to.thread),
      text: r.text,
      buttons: r.buttons.map((row) => row.map((b) => ({ id: b.id, label: b.label }))),
    })),
  async press(messageId, actionId) {
    await local.press({ messageId, actionId, senderId: 'bob' });
    return { sender: { id: 'bob' } };
  },
  rateLimitNextSend(retryAfterSecs) {
    local.failNextSends(1, (_to, msg) => {
      refused.push(msg.text);
      return new ChannelRateLimitError(retryAfterSecs * 1000);
    });
  },
  sendAttempts: (text) =>
    refused.filter((t) => t === text).length + local.replies.filter((r) => r.text === text).length,
  async dropConnection() {
    throw new Error('the local channel has no connection');
  },
};

channelContract(driver);
