// Files in the web chat over HTTP on real Redis (media.md §1, §2): uploads behind the login and CSRF, read no
// further than max_attachment_mb, owned by their user and chat, queued as the message's stored attachments; a
// file the bot sends served to its own chat only, as a download that no browser runs.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_UPLOADS_MAX, type WebChatFeedItem } from '../../../src/channel-host/web-chat.ts';
import { CROSS_SITE, CSRF_MISSING, NOT_SIGNED_IN } from '../../../src/web/auth-messages.ts';
import {
  BAD_UPLOAD_NAME,
  EMPTY_UPLOAD,
  FILE_NOT_FOUND,
  tooManyUploads,
  UPLOAD_GONE_TEXT,
  uploadTooLarge,
} from '../../../src/web/chat-messages.ts';
import type { StoredSession } from '../../../src/web/session-store.ts';
import { type FilesServer, startFilesServer, writeHeaders } from '../../helpers/web-files-server.ts';

/** A PNG signature and a little more: what sniff.ts recognises as an image. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 7),
]);
const MIB = 1024 * 1024;

let s: FilesServer;
let alice: StoredSession;
let bob: StoredSession;
beforeAll(async () => {
  s = await startFilesServer('web-files', 1);
  alice = await s.session('alice');
  bob = await s.session('bob');
});
afterAll(() => s?.close());

const upload = (
  who: StoredSession | undefined,
  body: Buffer,
  opts: { name?: string; headers?: object } = {},
) =>
  fetch(`${s.url}/chat/main/uploads`, {
    method: 'POST',
    headers: {
      ...(who ? writeHeaders(who) : {}),
      'content-type': 'application/octet-stream',
      ...(opts.name !== undefined ? { 'x-file-name': opts.name } : {}),
      ...opts.headers,
    },
    body,
  });

const send = (who: StoredSession, body: object) =>
  fetch(`${s.url}/chat/main/messages`, {
    method: 'POST',
    headers: { ...writeHeaders(who), 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: crypto.randomUUID(), text: '', ...body }),
  });

async function uploadId(who: StoredSession, body: Buffer, name: string): Promise<string> {
  const res = await upload(who, body, { name: encodeURIComponent(name) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A raw body sent in chunks with no length, until the server answers: what it answered and what was written. */
function streamUpload(who: StoredSession, total: number) {
  return new Promise<{ status: number; body: string; written: number }>((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, 1);
    let written = 0;
    let answered = false;
    const req = request(`${s.url}/chat/main/uploads`, {
      method: 'POST',
      headers: { ...writeHeaders(who), 'content-type': 'application/octet-stream', 'x-file-name': 'big.bin' },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      const done = () => {
        resolve({ status: res.statusCode ?? 0, body, written });
        req.destroy();
      };
      res.on('end', done);
      res.on('error', done);
    });
    // The server cuts the connection some time after its answer: a write failing then is expected.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const pump = () => {
      while (!answered && written < total) {
        written += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const feed = async (chatId: string) => {
  const items: WebChatFeedItem[] = [];
  (await s.chat.follow(chatId, undefined, (i) => items.push(i)))();
  return items.map((i) => JSON.parse(i.data) as Record<string, unknown>);
};

describe('web chat uploads', () => {
  it('stores an upload, and a files-only message queues it as a stored attachment with the same bytes', async () => {
    const res = await upload(alice, PNG, {
      name: encodeURIComponent('screen shot é.png'),
      headers: { 'content-type': 'image/png' },
    });
    expect(res.status).toBe(201);
    const up = (await res.json()) as { id: string; name: string; size: number; kind: string };
    expect(up).toMatchObject({ name: 'screen shot é.png', size: PNG.length, kind: 'image' });
    const clientId = crypto.randomUUID();
    const sent = await send(alice, { uploads: [up.id], clientId });
    expect(sent.status).toBe(202);
    const event = s.accepted.at(-1);
    expect(event?.text).toBe('');
    expect(event?.attachments).toHaveLength(1);
    const a = event?.attachments?.[0];
    expect(a).toMatchObject({
      kind: 'image',
      name: 'screen shot é.png',
      size: PNG.length,
      mime: 'image/png',
    });
    expect(a?.source).toBeUndefined();
    expect(a?.failed).toBeUndefined();
    expect(Buffer.compare((await s.blobs.get(a?.blob ?? '')) ?? Buffer.alloc(0), PNG)).toBe(0);
    // The echo lists the file by name; the upload's place and bytes are given back once the host has its copy.
    const echo = (await feed(alice.chatId)).find((e) => e.from === 'user');
    expect(echo?.attachments).toEqual([{ name: 'screen shot é.png', size: '72 B' }]);
    // A resend of that message (a network retry) is the same message; another message cannot send it again.
    const resend = await send(alice, { uploads: [up.id], clientId });
    expect(await resend.json()).toEqual({ accepted: true, duplicate: true });
    expect(s.accepted.filter((e) => e.eventId === `${alice.chatId}:${clientId}`)).toHaveLength(1);
    const again = await send(alice, { uploads: [up.id] });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: UPLOAD_GONE_TEXT });
  });

  it('refuses an upload without a session, without the CSRF header, or from another site', async () => {
    const anon = await upload(undefined, PNG);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toEqual({ error: NOT_SIGNED_IN });
    const noCsrf = await fetch(`${s.url}/chat/main/uploads`, {
      method: 'POST',
      headers: { cookie: `baton_session=${alice.sessionId}` },
      body: PNG,
    });
    expect(noCsrf.status).toBe(403);
    expect(await noCsrf.json()).toEqual({ error: CSRF_MISSING });
    const cross = await upload(alice, PNG, { headers: { origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toEqual({ error: CROSS_SITE });
    const unknown = await fetch(`${s.url}/chat/nope/uploads`, {
      method: 'POST',
      headers: writeHeaders(alice),
      body: PNG,
    });
    expect(unknown.status).toBe(404);
  });

  it("never sends another user's or another chat's upload, and download gives its bytes to its owner only", async () => {
    const id = await uploadId(alice, PNG, 'mine.png');
    const byBob = await send(bob, { text: 'steal', uploads: [id] });
    expect(byBob.status).toBe(409);
    expect(await byBob.json()).toMatchObject({ error: UPLOAD_GONE_TEXT });
    const otherTab = await s.session('alice');
    expect((await send(otherTab, { uploads: [id] })).status).toBe(409);
    // A source naming bob as the owner (no browser can write one; the adapter checks anyway).
    const forged = JSON.stringify({ upload: id, chat: bob.chatId, peer: 'web:bob' });
    await expect(s.chat.download?.(forged, MIB, AbortSignal.timeout(5000))).rejects.toMatchObject({
      reason: 'the platform no longer has this file',
    });
    const own = JSON.stringify({ upload: id, chat: alice.chatId, peer: 'web:alice' });
    expect(
      Buffer.from((await s.chat.download?.(own, MIB, AbortSignal.timeout(5000))) ?? []).equals(PNG),
    ).toBe(true);
    await expect(s.chat.download?.('not json', MIB, AbortSignal.timeout(5000))).rejects.toMatchObject({
      reason: 'the platform no longer has this file',
    });
  });

  it('stops reading a body past max_attachment_mb (413 naming the limit), declared or not', async () => {
    const res = await streamUpload(alice, 64 * MIB);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ error: uploadTooLarge('1 MB') });
    // Answered long before the client could send it all: the server stopped reading.
    expect(res.written).toBeLessThan(64 * MIB);
    const declared = await upload(alice, Buffer.alloc(MIB + 1, 2), { name: 'big.bin' });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: uploadTooLarge('1 MB') });
    // Exactly the limit is fine.
    expect((await upload(alice, Buffer.alloc(MIB, 2), { name: 'edge.bin' })).status).toBe(201);
  });

  it('keeps odd names as data, refuses undecodable names and empty files', async () => {
    const names = ['../../etc/passwd', 'a\u0000b\u0007c\n.txt', 'x'.repeat(10_000)];
    const ids = [];
    for (const name of names) ids.push(await uploadId(bob, Buffer.from('hello'), name));
    expect((await send(bob, { text: 'names', uploads: ids })).status).toBe(202);
    const got = s.accepted.at(-1)?.attachments ?? [];
    expect(got.map((a) => a.name)).toEqual(['../../etc/passwd', 'a\u0000b\u0007c\n.txt', 'x'.repeat(1000)]);
    expect(got.every((a) => a.kind === 'document' && a.blob && !a.failed)).toBe(true);
    const bad = await upload(bob, Buffer.from('x'), { name: '%E0%A4%A' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: BAD_UPLOAD_NAME });
    const empty = await upload(bob, Buffer.alloc(0), { name: 'empty.txt' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: EMPTY_UPLOAD });
    // A claimed image whose bytes are not one is a document.
    const liar = await upload(bob, Buffer.from('<svg onload=alert(1)>'), {
      name: 'x.png',
      headers: { 'content-type': 'image/png' },
    });
    expect(((await liar.json()) as { kind: string }).kind).toBe('document');
  });

  it(`holds at most ${PENDING_UPLOADS_MAX} unsent uploads per user; sending frees them`, async () => {
    const carolish = await s.session('bob');
    // bob's earlier unsent uploads (the lying PNG) count too: fill up to the cap.
    const ids: string[] = [];
    for (;;) {
      const res = await upload(carolish, Buffer.from('f'), { name: 'f.txt' });
      if (res.status === 429) {
        expect(await res.json()).toEqual({ error: tooManyUploads(PENDING_UPLOADS_MAX) });
        break;
      }
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
      expect(ids.length).toBeLessThanOrEqual(PENDING_UPLOADS_MAX);
    }
    expect((await send(carolish, { uploads: ids })).status).toBe(202);
    expect((await upload(carolish, Buffer.from('f'), { name: 'f.txt' })).status).toBe(201);
  });
});

describe('files the bot sends', () => {
  it('shows a download link served to its own chat only, as an attachment no browser runs', async () => {
    const html = Buffer.from('<script>alert(1)</script>');
    await s.chat.sendFile?.(
      { channel: 'web.main', chat: alice.chatId },
      {
        name: '../report <1>.html',
        bytes: html,
        mime: 'text/html',
        as: 'document',
        caption: 'the **report**',
      },
    );
    await s.chat.sendFile?.(
      { channel: 'web.main', chat: alice.chatId },
      { name: 'chart.png', bytes: PNG, mime: 'image/png', as: 'photo' },
    );
    const bot = (await feed(alice.chatId)).filter((e) => e.from === 'bot');
    const [report, chart] = bot.slice(-2) as {
      file: { url: string; name: string; size: string; image: boolean };
      html: string;
    }[];
    expect(report?.html).toContain('<strong>report</strong>');
    expect(report?.file).toMatchObject({ name: '_report__1_.html', size: '25 B', image: false });
    expect(report?.file.url).toMatch(/^\/chat\/main\/files\/[0-9a-f-]{36}$/);
    expect(chart?.file).toMatchObject({ name: 'chart.png', image: true });

    const get = (who: StoredSession | undefined, url: string) =>
      fetch(`${s.url}${url}`, { headers: who ? { cookie: `baton_session=${who.sessionId}` } : {} });
    const res = await get(alice, report?.file.url ?? '');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="_report__1_.html"');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await res.arrayBuffer()).equals(html)).toBe(true);
    const image = await get(alice, chart?.file.url ?? '');
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);

    // Anyone else: the same 404 as for a file that never existed.
    for (const who of [bob, await s.session('alice')]) {
      const other = await get(who, report?.file.url ?? '');
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ error: FILE_NOT_FOUND });
    }
    expect((await get(alice, `/chat/main/files/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await get(alice, '/chat/main/files/..%2F..%2Fetc')).status).toBe(404);
    expect((await get(undefined, report?.file.url ?? '')).status).toBe(401);
  });
});
