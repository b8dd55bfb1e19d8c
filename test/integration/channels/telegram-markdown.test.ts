// Telegram replies render the model's Markdown as HTML (parse_mode HTML), chunked without splitting a fenced
// block, and fall back to plain text when Telegram refuses the formatting. Real runtime, fake Bot API.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';

const MD = [
  '# Plan',
  '**bold** and `code` and [docs](https://example.com/x?a=1&b=2)',
  '```ts',
  'const x = 1 < 2;',
  '```',
  '<script>alert(1)</script>',
].join('\n');
const HTML = [
  '<b>Plan</b>',
  '<b>bold</b> and <code>code</code> and <a href="https://example.com/x?a=1&amp;b=2">docs</a>',
  '<pre><code class="language-ts">const x = 1 &lt; 2;</code></pre>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
].join('\n');
const CODE = Array.from({ length: 300 }, (_, i) => `    value_${i} = compute(${i}) * 2  # line ${i}`);
const LONG_CODE = `Here it is:\n\n\`\`\`py\n${CODE.join('\n')}\n\`\`\`\n\nDone.`;

let tg: FakeTelegram;
let h: RuntimeHarness;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  const toml = runtimeToml(`
[channels.telegram.home]
enabled = true
bot_token = "T1"
api_base_url = "${tg.url}"

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["7"]
`);
  h = await createRuntimeHarness('telegram-markdown', toml, { platformChannels: true });
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});
beforeEach(() => h.server.reset());

const sentIn = (chat: number, count: number) =>
  waitFor(() => tg.sentTo(chat).length >= count, 30_000, `${count} messages in ${chat}`).then(() =>
    tg.sentTo(chat),
  );

describe('telegram markdown', () => {
  it('sends bold, code, a fenced block and a link as Telegram HTML, with the model HTML escaped', async () => {
    h.server.respond(() => ({ text: MD }));
    tg.injectMessage({ chat: 31, from: 7, text: 'format please' });
    const [sent] = await sentIn(31, 1);
    expect(sent?.versions[0]?.html).toBe(HTML);
    expect(sent?.message.text).toBe(
      'Plan\nbold and code and docs\nconst x = 1 < 2;\n<script>alert(1)</script>',
    );
    const call = tg.calls.find((c) => c.method === 'sendMessage' && c.params.chat_id === 31);
    expect(call?.params.parse_mode).toBe('HTML');
  });

  it('resends the same chunk as plain text when Telegram cannot parse the entities', async () => {
    tg.failNext('sendMessage', {
      status: 400,
      description: "Bad Request: can't parse entities: unexpected end tag",
    });
    h.server.respond(() => ({ text: MD }));
    tg.injectMessage({ chat: 32, from: 7, text: 'format again' });
    const [sent] = await sentIn(32, 1);
    expect(sent?.message.text).toBe(MD);
    expect(sent?.versions[0]?.html).toBeUndefined();
    const calls = tg.calls.filter((c) => c.method === 'sendMessage');
    expect(calls.at(-2)?.params.parse_mode).toBe('HTML');
    expect(calls.at(-1)?.params.parse_mode).toBeUndefined();
    expect(tg.sentTo(32)).toHaveLength(1);
  });

  it('chunks a long fenced block under 4096, closing and reopening the block in every chunk', async () => {
    h.server.respond(() => ({ text: LONG_CODE }));
    tg.injectMessage({ chat: 33, from: 7, text: 'long code' });
    await waitFor(
      () => tg.sentTo(33).some((s) => s.message.text?.includes('Done.')),
      30_000,
      'the last chunk',
    );
    const chunks = tg.sentTo(33);
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) {
      expect(c.message.text?.length ?? 0).toBeLessThanOrEqual(4096);
      expect(c.versions[0]?.html).toContain('<pre><code class="language-py">');
    }
    const shown = chunks.map((c) => c.message.text).join('\n');
    for (const line of CODE) expect(shown).toContain(line);
    expect(shown).not.toContain('```');
  });

  it('renders an edit the same way', async () => {
    const adapter = h.adapters.find((a) => a.key === 'telegram.home')!;
    const ref = await adapter.send({ channel: 'telegram.home', chat: '34' }, { text: 'working…' });
    await adapter.edit(ref, { text: '**done** with `x`' });
    const [sent] = tg.sentTo(34);
    expect(sent?.versions.at(-1)).toMatchObject({
      text: 'done with x',
      html: '<b>done</b> with <code>x</code>',
    });

    tg.failNext('editMessageText', { status: 400, description: "Bad Request: can't parse entities: x" });
    await adapter.edit(ref, { text: '**plain** now' });
    expect(sent?.versions.at(-1)).toEqual({ text: '**plain** now', reply_markup: { inline_keyboard: [] } });
  });
});
