// A lone UTF-16 surrogate in a web chat message (security review #8): the message still gets its reply, and so
// does the next one in the same conversation (an ingest that failed after numbering left a gap that held every
// later reply forever).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { readSse, type SseFrame } from '../../helpers/sse.ts';

const TOML = `
[channels.web.main]
enabled = true

[peer_groups.web]
channel = "web.main"
agents = ["main"]
external_peers = ["web:local"]
`;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('web-chat-surrogate', runtimeToml(TOML), {
    platformChannels: true,
    ops: {},
  });
});
afterAll(() => h?.close());

const hasBot = (text: string) => (frames: SseFrame[]) =>
  frames.some((f) => {
    const e = JSON.parse(f.data) as Record<string, unknown>;
    return e.from === 'bot' && String(e.html).includes(text);
  });

describe('web chat: a lone surrogate', () => {
  it('gets a reply, and the next message in the conversation gets one too', async () => {
    const page = await fetch(`${h.opsUrl}/chat/main`);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await page.text())?.[1] ?? '';
    const send = (text: string) =>
      fetch(`${h.opsUrl}/chat/main/messages`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrf },
        // JSON.stringify escapes the lone surrogate as \ud800: the body is valid JSON carrying it.
        body: JSON.stringify({ text, clientId: crypto.randomUUID() }),
      });
    h.server.script([{ text: 'reply one' }, { text: 'reply two' }]);
    const feed = readSse(await fetch(`${h.opsUrl}/chat/main/events`, { headers: { cookie } }));
    try {
      expect((await send('broken \ud800 text')).status).toBe(202);
      await feed.until(hasBot('reply one'));
      expect((await send('next')).status).toBe(202);
      await feed.until(hasBot('reply two'));
    } finally {
      feed.close();
    }
    // The model was shown the text made well-formed (U+FFFD in place of the lone surrogate).
    const first = JSON.stringify(h.server.requests[0]?.body ?? {});
    expect(first).toContain('broken \ufffd text');
  });
});
