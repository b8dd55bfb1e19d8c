// The Slack adapter's file side against the fake Slack: url_private downloads with the bot token (and to no other
// host), Slack's refusals as reasons, and send_file's external upload flow into a thread, with rate limits.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../channels/slack/slack-adapter.ts';
import { type ChannelAdapter, ChannelRateLimitError } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { AttachmentFetchError } from '../../../src/media/attachment.ts';
import { attachmentReasons } from '../../../src/media/media-messages.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';

let fake: FakeSlackServer;
let slack: ChannelAdapter;
/** Another host on the loopback: whatever reaches it is recorded (it must never see the bot token). */
let foreign: Server;
let foreignUrl: string;
const foreignHits: IncomingHttpHeaders[] = [];

const adapterWith = (botToken: string) =>
  createSlackAdapter({
    alias: 'files',
    botToken,
    apiBaseUrl: fake.apiUrl,
    channelIds: [],
    threadReplies: true,
    logger: createSilentLogger(),
    retries: 0,
  });

beforeAll(async () => {
  fake = await startFakeSlack();
  slack = adapterWith('xoxb-test');
  foreign = createServer((req, res) => {
    foreignHits.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end('%PDF-1.4 elsewhere');
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fake?.close();
  foreign?.closeAllConnections();
  await new Promise<void>((resolve) => foreign?.close(() => resolve()));
});

const download = (source: string, maxBytes = 1024 * 1024, signal = AbortSignal.timeout(10_000)) =>
  slack.download!(source, maxBytes, signal);

/** The reason a download fails with (it must fail with an AttachmentFetchError). */
async function reasonOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => new Error('downloaded'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AttachmentFetchError);
  return (err as AttachmentFetchError).reason;
}

describe('slack file downloads', () => {
  it('fetches url_private_download with the bot token as a bearer', async () => {
    const file = fake.files.host({
      name: 'report.pdf',
      bytes: '%PDF-1.4 the report',
      mimetype: 'application/pdf',
    });
    const bytes = await download(String(file.url_private_download));
    expect(Buffer.from(bytes).toString()).toBe('%PDF-1.4 the report');
    expect(fake.files.downloadsOf(String(file.id))).toMatchObject([{ authorization: 'Bearer xoxb-test' }]);
  });

  it('turns 403, 404 and the HTML sign-in page (a refused token) into reasons', async () => {
    const forbidden = fake.files.host({ name: 'a.pdf', bytes: 'x', behaviour: { status: 403 } });
    expect(await reasonOf(download(String(forbidden.url_private)))).toBe(attachmentReasons.refused(403));
    const gone = fake.files.host({ name: 'b.pdf', bytes: 'x', behaviour: { status: 404 } });
    expect(await reasonOf(download(String(gone.url_private)))).toBe(attachmentReasons.notFound);
    const login = fake.files.host({ name: 'c.pdf', bytes: 'x', behaviour: 'login' });
    expect(await reasonOf(download(String(login.url_private)))).toBe(attachmentReasons.loginPage);
    // A token Slack does not accept gets the same page.
    const ok = fake.files.host({ name: 'd.png', bytes: 'x', mimetype: 'image/png' });
    const stale = adapterWith('xoxb-revoked');
    const reason = await reasonOf(stale.download!(String(ok.url_private), 1024, AbortSignal.timeout(10_000)));
    expect(reason).toBe(attachmentReasons.loginPage);
  });

  it('serves an HTML file that is one (its name says .html)', async () => {
    const page = fake.files.host({ name: 'page.html', bytes: '<html>mine</html>', mimetype: 'text/html' });
    expect(Buffer.from(await download(String(page.url_private))).toString()).toBe('<html>mine</html>');
  });

  it('refuses a URL on another host without sending it anything, and drops the token on a redirect away', async () => {
    const before = foreignHits.length;
    expect(await reasonOf(download(`${foreignUrl}/files-pri/T0FAKE-F1/x.pdf`))).toBe(
      attachmentReasons.notOnPlatform,
    );
    expect(await reasonOf(download('https://files.slack.com.evil.example/x.pdf'))).toBe(
      attachmentReasons.notOnPlatform,
    );
    expect(await reasonOf(download('http://files.slack.com/x.pdf'))).toBe(attachmentReasons.notOnPlatform);
    expect(await reasonOf(download('not a url'))).toBe(attachmentReasons.notOnPlatform);
    expect(foreignHits.length).toBe(before);
    // Slack's host redirecting elsewhere: followed, but without the bot token.
    const moved = fake.files.host({
      name: 'm.pdf',
      bytes: 'x',
      behaviour: { redirect: `${foreignUrl}/cdn/m.pdf` },
    });
    expect(Buffer.from(await download(String(moved.url_private))).toString()).toBe('%PDF-1.4 elsewhere');
    expect(foreignHits.slice(before)).toHaveLength(1);
    expect(foreignHits.at(-1)?.authorization).toBeUndefined();
  });

  it('stops past the limit, gives up on a host that never answers, and reads files.info for a hidden URL', async () => {
    const big = fake.files.host({ name: 'big.bin', bytes: Buffer.alloc(4096, 1) });
    expect(await reasonOf(download(String(big.url_private), 1000))).toBe(attachmentReasons.tooLarge(1000));
    const slow = fake.files.host({ name: 'slow.pdf', bytes: 'x', behaviour: 'hang' });
    expect(await reasonOf(download(String(slow.url_private), 1000, AbortSignal.timeout(300)))).toBe(
      attachmentReasons.timedOut,
    );
    const hidden = fake.files.host({ name: 'h.txt', bytes: 'connect', mimetype: 'text/plain' });
    expect(Buffer.from(await download(`slack-file:${hidden.id}`)).toString()).toBe('connect');
    expect(await reasonOf(download('slack-file:F0NONE'))).toBe(attachmentReasons.notFound);
    expect(await reasonOf(download(`slack-file:${hidden.id}x`, 1000, AbortSignal.abort()))).toBe(
      attachmentReasons.timedOut,
    );
  });

  it('shares one download between concurrent asks for the same file', async () => {
    const file = fake.files.host({ name: 'twice.pdf', bytes: '%PDF twice' });
    const release = fake.files.gate(String(file.id));
    const a = download(String(file.url_private_download));
    const b = download(String(file.url_private_download));
    await fake.waitFor(() => fake.files.downloadsOf(String(file.id)).length === 1, 'the download');
    release();
    expect((await Promise.all([a, b])).map((x) => Buffer.from(x).toString())).toEqual([
      '%PDF twice',
      '%PDF twice',
    ]);
    expect(fake.files.downloadsOf(String(file.id))).toHaveLength(1);
  });
});

describe('slack sendFile', () => {
  it('uploads through the external flow into a thread, with the caption as the comment (mrkdwn, no pings)', async () => {
    expect(slack.maxUploadBytes).toBe(1024 * 1024 * 1024);
    const bytes = Buffer.from('%PDF-1.4 weekly numbers');
    const ref = await slack.sendFile!(
      { channel: 'slack.files', chat: 'C0FILES', thread: '1700000000.000100' },
      {
        name: 'report.pdf',
        bytes,
        mime: 'application/pdf',
        as: 'document',
        caption: 'the **weekly** report <!channel>',
      },
    );
    const upload = fake.files.uploads.find((u) => u.completed?.channel === 'C0FILES');
    expect(upload).toMatchObject({
      filename: 'report.pdf',
      length: bytes.byteLength,
      completed: { thread_ts: '1700000000.000100', initial_comment: 'the *weekly* report &lt;!channel&gt;' },
    });
    expect(upload?.bytes.equals(bytes)).toBe(true);
    expect(ref).toEqual({ channel: 'slack.files', chat: 'C0FILES', messageId: upload?.completed?.ts });
    expect(fake.callsOf('files.completeUploadExternal').at(-1)?.token).toBe('xoxb-test');
  });

  it('surfaces a 429 as a rate limit, and the retry then sends the file once', async () => {
    fake.failNext({ status: 429, retryAfterSecs: 2 }, 'files.getUploadURLExternal');
    const file = { name: 'a.png', bytes: Buffer.from('png-ish'), mime: 'image/png', as: 'photo' as const };
    const to = { channel: 'slack.files', chat: 'C0RATE' };
    const err = await slack.sendFile!(to, file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChannelRateLimitError);
    expect((err as ChannelRateLimitError).retryAfterMs).toBe(2000);
    await slack.sendFile!(to, file);
    const sent = fake.files.uploads.filter((u) => u.completed?.channel === 'C0RATE');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.completed?.thread_ts).toBeUndefined();
    expect(sent[0]?.completed?.initial_comment).toBeUndefined();
  });
});
