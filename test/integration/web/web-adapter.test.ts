// The web adapter's transport on real Redis: what one gateway's adapter sends reaches a browser followed on
// another gateway's adapter (one pub/sub connection each), typing is live-only, edits and inbound events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebAdapter } from '../../../channels/web/web-adapter.ts';
import { createWebChatHub } from '../../../channels/web/web-hub.ts';
import type { ChannelHost } from '../../../src/channel-host/types.ts';
import type { WebChatEndpoint, WebChatFeedItem } from '../../../src/channel-host/web-chat.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { renderChatMarkdown, renderChatPlain } from '../../../src/web/markdown.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';

const prefix = uniquePrefix('web-adapter');
const redis = testRedis();
const received: unknown[] = [];
const host: ChannelHost = {
  async receive(event) {
    received.push(event);
    return { accepted: true, conversation: 'x', notice: 'noted' };
  },
};
const logger = createSilentLogger();
const gateway = () =>
  createWebAdapter({
    alias: 'main',
    title: 'baton',
    redisTarget: { url: REDIS_URL },
    prefix,
    hub: createWebChatHub({ redisTarget: { url: REDIS_URL }, prefix, logger }),
    render: { markdown: renderChatMarkdown, plain: renderChatPlain },
    logger,
  });
let a: WebChatEndpoint;
let b: WebChatEndpoint;

beforeAll(async () => {
  a = gateway();
  b = gateway();
  await a.start(host);
  await b.start(host);
});
afterAll(async () => {
  await a.stop();
  await b.stop();
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

const parsed = (items: WebChatFeedItem[]) => items.map((i) => JSON.parse(i.data) as Record<string, unknown>);

describe('web adapter', () => {
  it('is not single-consumer: every gateway runs it', () => {
    expect(a.singleConsumer).toBe(false);
    expect(a.key).toBe('web.main');
  });

  it('delivers a send on gateway A to a follower on gateway B, live, with edits and typing', async () => {
    const items: WebChatFeedItem[] = [];
    const stop = await b.follow('chat1', undefined, (i) => items.push(i));
    const ref = await a.send(
      { channel: 'web.main', chat: 'chat1' },
      { text: 'card *x*', buttons: [[{ id: 'approval:1:approve', label: 'Approve' }]] },
    );
    await a.typing({ channel: 'web.main', chat: 'chat1' });
    await a.edit(ref, { text: 'done <b>', markup: '<i>done</i>' });
    await waitFor(() => parsed(items).some((e) => e.t === 'edit'), 10_000, 'edit event');
    stop();
    // Typing is live-only and unordered relative to the stored events (which come in stream order).
    expect(parsed(items)).toContainEqual({ t: 'typing' });
    const events = parsed(items.filter((i) => i.id));
    expect(events[0]).toEqual({
      t: 'msg',
      id: ref.messageId,
      from: 'bot',
      html: '<p>card <em>x</em></p>\n',
      buttons: [[{ id: 'approval:1:approve', label: 'Approve' }]],
    });
    // Markup (another platform's) means the plain text is shown, escaped; no buttons: removed.
    expect(events.at(-1)).toEqual({
      t: 'edit',
      id: ref.messageId,
      html: '<p class="plain">done &lt;b&gt;</p>',
      buttons: [],
    });
    // Typing is never stored: a replay has only the message and the edit.
    const replay: WebChatFeedItem[] = [];
    const stop2 = await a.follow('chat1', undefined, (i) => replay.push(i));
    stop2();
    expect(parsed(replay).map((e) => e.t)).toEqual(['msg', 'edit']);
    // Resuming after the first id gives only the edit.
    const after: WebChatFeedItem[] = [];
    (await a.follow('chat1', replay[0]?.id, (i) => after.push(i)))();
    expect(after.map((i) => i.id)).toEqual([replay[1]?.id]);
  });

  it('renders stored text when serving it, and skips a record it cannot read instead of stopping the feed', async () => {
    const key = `${prefix}:web:chat:main:chat3`;
    // Written straight to Redis, as a damaged record or another writer would: the feed still escapes and checks.
    await redis.xadd(
      key,
      '*',
      'e',
      JSON.stringify({ t: 'msg', id: 'x1', from: 'bot', html: '<img src=x onerror=alert(1)>' }),
    );
    await redis.xadd(key, '*', 'e', 'not json');
    await redis.xadd(
      key,
      '*',
      'e',
      JSON.stringify({
        t: 'msg',
        id: 'x2',
        from: 'bot',
        text: '<script>alert(1)</script> **hi**',
        format: 'markdown',
      }),
    );
    const items: WebChatFeedItem[] = [];
    (await a.follow('chat3', undefined, (i) => items.push(i)))();
    expect(parsed(items)).toEqual([
      {
        t: 'msg',
        id: 'x2',
        from: 'bot',
        html: '<p>&lt;script&gt;alert(1)&lt;/script&gt; <strong>hi</strong></p>\n',
      },
    ]);
  });

  it('hands a typed message and a button press to the host as the web user', async () => {
    received.length = 0;
    const user = { peerId: 'web:local', chatId: 'chat2' };
    await a.post(user, 'hello', '0b8a4c36-3b2e-4f7e-9a55-3f1d7d0c2e11');
    const press = await b.press(user, 'b-1', 'approval:1:approve');
    expect(press).toMatchObject({ accepted: true, notice: 'noted' });
    expect(received[0]).toMatchObject({
      kind: 'message',
      channel: 'web.main',
      chat: 'chat2',
      eventId: 'chat2:0b8a4c36-3b2e-4f7e-9a55-3f1d7d0c2e11',
      sender: { id: 'web:local' },
      text: 'hello',
      isDirect: true,
    });
    expect(received[1]).toMatchObject({
      kind: 'action',
      channel: 'web.main',
      chat: 'chat2',
      sender: { id: 'web:local' },
      actionId: 'approval:1:approve',
      messageId: 'b-1',
    });
  });
});
