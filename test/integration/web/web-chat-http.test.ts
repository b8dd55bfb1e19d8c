// The web chat over plain HTTP on a real gateway + worker (real Redis, fake model): CSRF on writes, the SSE feed
// replaying history and resuming after Last-Event-ID, unknown chats, bad bodies.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_MISSING } from '../../../src/web/auth-messages.ts';
import { BAD_MESSAGE, noChat } from '../../../src/web/chat-messages.ts';
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
  h = await createRuntimeHarness('web-chat-http', runtimeToml(TOML), { platformChannels: true, ops: {} });
});
afterAll(() => h?.close());
beforeEach(() => h.server.reset());

/** A browser session: the cookie and the CSRF token the page carries. */
async function session() {
  const res = await fetch(`${h.opsUrl}/chat/main`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(await res.text())?.[1] ?? '';
  expect(csrf).not.toBe('');
  return { cookie, csrf };
}

const post = (path: string, cookie: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${h.opsUrl}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

const events = (frames: SseFrame[]) => frames.map((f) => JSON.parse(f.data) as Record<string, unknown>);
const hasBot = (text: string) => (frames: SseFrame[]) =>
  events(frames).some((e) => e.from === 'bot' && String(e.html).includes(text));

describe('web chat over HTTP', () => {
  it('refuses a write without the CSRF header, takes it with the header', async () => {
    const { cookie, csrf } = await session();
    const msg = { text: 'hello', clientId: crypto.randomUUID() };
    const refused = await post('/chat/main/messages', cookie, msg);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: CSRF_MISSING });
    const cross = await post('/chat/main/messages', cookie, msg, {
      'x-csrf-token': csrf,
      origin: 'http://evil.example',
    });
    expect(cross.status).toBe(403);
    expect(h.server.requests).toHaveLength(0);
    h.server.script([{ text: 'hi back' }]);
    const ok = await post('/chat/main/messages', cookie, msg, { 'x-csrf-token': csrf });
    expect(ok.status).toBe(202);
    await h.server.waitForRequests(1);
    // The same clientId again is a resend, not a second turn.
    const again = await post('/chat/main/messages', cookie, msg, { 'x-csrf-token': csrf });
    expect(await again.json()).toEqual({ accepted: true, duplicate: true });
  });

  it('refuses bad bodies and unknown chats', async () => {
    const { cookie, csrf } = await session();
    const bad = await post('/chat/main/messages', cookie, { text: '' }, { 'x-csrf-token': csrf });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: BAD_MESSAGE });
    const none = await post(
      '/chat/nope/messages',
      cookie,
      { text: 'x', clientId: crypto.randomUUID() },
      { 'x-csrf-token': csrf },
    );
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ error: noChat('nope') });
  });

  it('feeds the chat over SSE: history first, live after, and resumes after Last-Event-ID', async () => {
    const { cookie, csrf } = await session();
    h.server.script([{ text: 'first reply' }, { text: 'second reply' }]);
    await post(
      '/chat/main/messages',
      cookie,
      { text: 'one', clientId: crypto.randomUUID() },
      { 'x-csrf-token': csrf },
    );
    // Connected after the first exchange began: the feed replays it.
    const feed = readSse(await fetch(`${h.opsUrl}/chat/main/events`, { headers: { cookie } }));
    await feed.until(hasBot('first reply'));
    const seen = feed.frames.filter((f) => f.id).length;
    await post(
      '/chat/main/messages',
      cookie,
      { text: 'two', clientId: crypto.randomUUID() },
      { 'x-csrf-token': csrf },
    );
    await feed.until(hasBot('second reply'));
    feed.close();
    const ids = feed.frames.flatMap((f) => (f.id ? [f.id] : []));
    expect(ids.length).toBeGreaterThan(seen);
    expect(events(feed.frames.filter((f) => f.id)).map((e) => e.from)).toEqual([
      'user',
      'bot',
      'user',
      'bot',
    ]);

    // A reconnect with the id of the first reply gets exactly what followed it.
    const resumed = readSse(
      await fetch(`${h.opsUrl}/chat/main/events`, { headers: { cookie, 'last-event-id': ids[1] ?? '' } }),
    );
    await resumed.until(hasBot('second reply'));
    resumed.close();
    expect(resumed.frames.filter((f) => f.id).map((f) => f.id)).toEqual(ids.slice(2));

    // Another browser session is another chat: it sees none of this.
    const other = await session();
    const otherFeed = readSse(
      await fetch(`${h.opsUrl}/chat/main/events`, { headers: { cookie: other.cookie } }),
    );
    h.server.script([{ text: 'other reply' }]);
    await post(
      '/chat/main/messages',
      other.cookie,
      { text: 'mine', clientId: crypto.randomUUID() },
      { 'x-csrf-token': other.csrf },
    );
    await otherFeed.until(hasBot('other reply'));
    otherFeed.close();
    expect(otherFeed.frames.some((f) => f.data.includes('first reply'))).toBe(false);
  });

  it('requires a session for writes (a loopback GET gets the silent local session instead)', async () => {
    const res = await post('/chat/main/messages', '', { text: 'x', clientId: crypto.randomUUID() });
    expect(res.status).toBe(401);
  });
});
