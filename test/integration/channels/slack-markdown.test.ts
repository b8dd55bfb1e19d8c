// Slack replies render the model's Markdown as mrkdwn, chunked without splitting a fenced block, and fall back
// to plain text when Slack refuses the blocks. Real Bolt, real runtime, fake Slack.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openFence } from '../../../src/channel-host/markdown/chunk.ts';
import type { ChannelAdapter } from '../../../src/channel-host/types.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { slackToml } from './slack-fixture.ts';

const MD =
  '# Plan\n**bold** and `code` and [docs](https://example.com/?a=1&b=2)\n```ts\nif (a < b) {}\n```\n<!channel>';
const MRKDWN =
  '*Plan*\n*bold* and `code` and <https://example.com/?a=1&amp;b=2|docs>\n```\nif (a &lt; b) {}\n```\n&lt;!channel&gt;';
const CODE = Array.from({ length: 200 }, (_, i) => `    value_${i} = compute(${i})`);

let fake: FakeSlackServer;
let h: RuntimeHarness;
let slack: ChannelAdapter;
let nextChannel = 0;
const freshChannel = () => `CMD${String(++nextChannel).padStart(3, '0')}`;

beforeAll(async () => {
  fake = await startFakeSlack();
  const toml = slackToml('test', fake.apiUrl, `app_token = "xapp-test"`);
  h = await createRuntimeHarness('slack-markdown', toml, {
    platformChannels: true,
  });
  slack = h.adapters.find((a) => a.key === 'slack.test')!;
});
afterAll(async () => {
  await h?.close();
  await fake?.socket.waitForNoSockets();
  await fake?.close();
});
beforeEach(() => h.server.reset());

describe('slack markdown', () => {
  it('sends bold, code, a fenced block and a link as mrkdwn, the model text escaped', async () => {
    const channel = freshChannel();
    h.server.respond(() => ({ text: MD }));
    fake.injectMessage({ channel, text: 'format please' });
    const [posted] = await fake.waitForMessages(1, channel);
    expect(posted?.text).toBe(MRKDWN);
    expect(fake.callsOf('chat.postMessage').at(-1)?.params.mrkdwn).toBeUndefined();
  });

  it('puts the mrkdwn in a section beside buttons, and resends as plain text when Slack answers invalid_blocks', async () => {
    const channel = freshChannel();
    const msg = { text: '**Run** `rm`?', buttons: [[{ id: 'ok:1', label: 'OK' }]] };
    await slack.send({ channel: 'slack.test', chat: channel }, msg);
    const [first] = await fake.waitForMessages(1, channel);
    expect(first?.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*Run* `rm`?' } });

    fake.failNext({ status: 200, error: 'invalid_blocks' }, 'chat.postMessage');
    await slack.send({ channel: 'slack.test', chat: channel }, msg);
    const [, second] = await fake.waitForMessages(2, channel);
    expect(second?.text).toBe('**Run** `rm`?');
    expect(second?.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'plain_text', text: '**Run** `rm`?', emoji: true },
    });
    // Form-encoded by the Web API client, so the fake sees the string.
    expect(String(fake.callsOf('chat.postMessage').at(-1)?.params.mrkdwn)).toBe('false');
    expect(fake.messages.filter((m) => m.channel === channel)).toHaveLength(2);
  });

  it('renders an edit the same way, with the same fallback', async () => {
    const channel = freshChannel();
    const ref = await slack.send({ channel: 'slack.test', chat: channel }, { text: 'working' });
    await slack.edit(ref, { text: '~~working~~ **done**' });
    const msg = fake.messages.find((m) => m.ts === ref.messageId);
    expect(msg?.text).toBe('~working~ *done*');
    fake.failNext({ status: 200, error: 'invalid_blocks' }, 'chat.update');
    await slack.edit(ref, { text: 'a < **b**' });
    expect(msg?.text).toBe('a &lt; **b**');
  });

  it('chunks a long fenced block under the limit, each chunk a whole code block', async () => {
    const channel = freshChannel();
    h.server.respond(() => ({ text: `Code:\n\`\`\`py\n${CODE.join('\n')}\n\`\`\`\nDone.` }));
    fake.injectMessage({ channel, text: 'long code' });
    await fake.waitFor(
      () => fake.messages.some((m) => m.channel === channel && m.text.includes('Done.')),
      'the last chunk',
    );
    const chunks = fake.messages.filter((m) => m.channel === channel).map((m) => m.text);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect([...c].length).toBeLessThanOrEqual(3000);
      expect(c.match(/```/g)?.length).toBe(2);
      expect(openFence(c)).toBeNull();
    }
    const all = chunks.join('\n');
    for (const line of CODE) expect(all).toContain(line);
  });
});
