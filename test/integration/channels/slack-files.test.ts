// Slack files into a turn (media.md §1): the real Bolt adapter in Socket Mode against the fake Slack, the real
// gateway and worker on Redis. Each file is fetched once with the bot token, stored before the envelope is acked,
// and the turn runs whatever became of it.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationId } from '../../../src/channel-host/types.ts';
import { blobKeys, createBlobStore } from '../../../src/media/blob-store.ts';
import {
  attachmentFailedLine,
  attachmentReasons,
  attachmentSavedLine,
  formatSize,
} from '../../../src/media/media-messages.ts';
import { inboxRelativePath, safeName } from '../../../src/media/safe-name.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import { createRuntimeHarness, echoResponder, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { slackToml } from './slack-fixture.ts';

let fake: FakeSlackServer;
let h: RuntimeHarness;
let foreign: Server;
let foreignUrl: string;
let foreignHits = 0;
let nextChannel = 0;
const freshChannel = () => `CF${String(++nextChannel).padStart(4, '0')}`;
const MIB = 1024 * 1024;

beforeAll(async () => {
  fake = await startFakeSlack();
  foreign = createServer((_req, res) => {
    foreignHits++;
    res.end('%PDF-1.4 elsewhere');
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  const toml = slackToml('test', fake.apiUrl, `app_token = "xapp-test"\nmax_attachment_mb = 1`);
  h = await createRuntimeHarness('slack-files', toml, { platformChannels: true });
});
afterAll(async () => {
  await h?.close();
  await fake?.socket.waitForNoSockets();
  await fake?.close();
  foreign?.closeAllConnections();
  await new Promise<void>((resolve) => foreign?.close(() => resolve()));
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(echoResponder());
});

/** The bytes the gateway stored for the message's `index`th file, or null. */
const stored = (channel: string, ts: string, index = 0) =>
  createBlobStore(h.redis).get(blobKeys(h.prefix).inbound('slack.test', `${channel}:${ts}`, index));
const tsOf = (env: { payload: Record<string, unknown> }) => (env.payload.event as { ts: string }).ts;
/** A channel message's file as the turn sees it: its path in the workspace (thread_replies: the message's thread). */
const pathOf = (channel: string, ts: string, name: string) =>
  inboxRelativePath(conversationId('slack.test', channel, ts), `${channel}:${ts}`, name);
const savedLine = (kind: string, name: string, bytes: string, channel: string, ts: string) =>
  attachmentSavedLine(kind, safeName(name), formatSize(bytes.length), pathOf(channel, ts, name));
/** What the model was asked in the test's only turn. */
const asked = () => {
  expect(h.server.requests).toHaveLength(1);
  return askedOf(h.server.requests[0]!);
};
const inWorkspace = (rel: string) => readFileSync(join(h.config.agents.main!.workspace.path, rel), 'utf8');
const PDF = '%PDF-1.4\nquarterly numbers\n%%EOF';

describe('slack files into a turn', () => {
  it('fetches a PDF sent with text once, with the bot token, before the envelope is acked', async () => {
    const channel = freshChannel();
    const pdf = fake.files.host({
      name: 'report.pdf',
      bytes: PDF,
      mimetype: 'application/pdf',
      filetype: 'pdf',
    });
    const env = fake.injectMessage({ channel, text: 'summarise this', files: [pdf] });
    await fake.socket.waitForAck(env.envelope_id);
    // Stored by the time Slack hears the event is in.
    expect((await stored(channel, tsOf(env)))?.toString()).toBe(PDF);
    expect(fake.files.downloadsOf(String(pdf.id))).toMatchObject([{ authorization: 'Bearer xoxb-test' }]);
    await fake.waitForMessages(1, channel);
    const ts = tsOf(env);
    expect(asked()).toBe(`summarise this\n${savedLine('document', 'report.pdf', PDF, channel, ts)}`);
    expect(inWorkspace(pathOf(channel, ts, 'report.pdf'))).toBe(PDF);
  });

  it('makes a file with no text a turn; a claimed image that is not one is a file', async () => {
    const channel = freshChannel();
    const png = fake.files.host({ name: 'shot.png', bytes: 'not really a png', mimetype: 'image/png' });
    const env = fake.injectMessage({ channel, files: [png] });
    await fake.waitForMessages(1, channel);
    expect(asked()).toBe(savedLine('file', 'shot.png', 'not really a png', channel, tsOf(env)));
    expect((await stored(channel, tsOf(env)))?.toString()).toBe('not really a png');
  });

  it('gives a Slack voice clip as a voice note', async () => {
    const channel = freshChannel();
    const clip = fake.files.host({
      name: 'audio_message.m4a',
      bytes: 'm4a bytes',
      mimetype: 'audio/mp4',
      filetype: 'm4a',
      extra: { subtype: 'slack_audio', media_display_type: 'audio' },
    });
    const env = fake.injectMessage({ channel, files: [clip] });
    await fake.waitForMessages(1, channel);
    expect(asked()).toBe(savedLine('voice', 'audio_message.m4a', 'm4a bytes', channel, tsOf(env)));
  });

  it('downloads once and starts one turn when Slack redelivers, and for message plus app_mention', async () => {
    const channel = freshChannel();
    const pdf = fake.files.host({ name: 'once.pdf', bytes: PDF, mimetype: 'application/pdf' });
    const release = fake.files.gate(String(pdf.id));
    // Both deliveries of one mention arrive while the first download is still running.
    const message = fake.injectMessage({ channel, text: '<@U0BOT> read', files: [pdf] });
    const mention = fake.injectEvent({ ...(message.payload.event as object), type: 'app_mention' });
    await fake.waitFor(() => fake.files.downloadsOf(String(pdf.id)).length === 1, 'the download');
    release();
    await fake.socket.waitForAck(message.envelope_id);
    await fake.socket.waitForAck(mention.envelope_id);
    await fake.waitForMessages(1, channel);
    // Slack's retry of the acked event: the stored bytes are reused, the inbox drops it.
    const again = fake.socket.redeliver(message);
    await fake.socket.waitForAck(again.envelope_id);
    expect(fake.files.downloadsOf(String(pdf.id))).toHaveLength(1);
    expect(h.server.requests).toHaveLength(1);
  });

  it('does not download a file whose claimed size is over max_attachment_mb; the turn runs', async () => {
    const channel = freshChannel();
    const big = fake.files.host({ name: 'huge.zip', bytes: 'small really', size: 5 * MIB });
    const env = fake.injectMessage({ channel, text: 'too big?', files: [big] });
    await fake.waitForMessages(1, channel);
    expect(fake.files.downloadsOf(String(big.id))).toEqual([]);
    expect(await stored(channel, tsOf(env))).toBeNull();
    expect(asked()).toBe(
      `too big?\n${attachmentFailedLine('file', 'huge.zip', '5.0 MB', attachmentReasons.tooLarge(MIB))}`,
    );
  });

  it('explains an empty file and one larger than it claimed, holding nothing past the limit', async () => {
    const channel = freshChannel();
    const empty = fake.files.host({ name: 'empty.txt', bytes: '', mimetype: 'text/plain' });
    const liar = fake.files.host({ name: 'small.bin', bytes: Buffer.alloc(2 * MIB, 7), size: 10 });
    const env = fake.injectMessage({ channel, text: 'two odd files', files: [empty, liar] });
    await fake.waitForMessages(1, channel);
    expect(asked()).toBe(
      [
        'two odd files',
        attachmentFailedLine('document', 'empty.txt', '0 B', attachmentReasons.empty),
        attachmentFailedLine('file', 'small.bin', '10 B', attachmentReasons.tooLarge(MIB)),
      ].join('\n'),
    );
    expect(fake.files.downloadsOf(String(empty.id))).toEqual([]);
    expect(await stored(channel, tsOf(env), 1)).toBeNull();
  });

  it('runs the turn when Slack refuses the download (403, sign-in page) or the URL is on another host', async () => {
    const channel = freshChannel();
    const files = [
      fake.files.host({ name: 'a.pdf', bytes: PDF, mimetype: 'application/pdf', behaviour: { status: 403 } }),
      fake.files.host({ name: 'b.pdf', bytes: PDF, mimetype: 'application/pdf', behaviour: 'login' }),
      fake.files.host({
        name: 'c.pdf',
        bytes: PDF,
        mimetype: 'application/pdf',
        extra: { url_private_download: `${foreignUrl}/files-pri/T0FAKE-F1/download/c.pdf` },
      }),
    ];
    const env = fake.injectMessage({ channel, text: 'three files', files });
    await fake.waitForMessages(1, channel);
    const size = formatSize(PDF.length);
    expect(asked()).toBe(
      [
        'three files',
        attachmentFailedLine('document', 'a.pdf', size, 'the platform refused the download (HTTP 403)'),
        attachmentFailedLine('document', 'b.pdf', size, attachmentReasons.loginPage),
        attachmentFailedLine('document', 'c.pdf', size, attachmentReasons.notOnPlatform),
      ].join('\n'),
    );
    expect(foreignHits).toBe(0);
    for (const i of [0, 1, 2]) expect(await stored(channel, tsOf(env), i)).toBeNull();
    expect(fake.files.downloadsOf(String(files[0]?.id))).toHaveLength(1);
    expect(fake.files.downloadsOf(String(files[1]?.id))).toHaveLength(1);
  });

  it('stores files with odd names under its own keys and runs the turn', async () => {
    const channel = freshChannel();
    const names = ['../../etc/passwd', 'bad\u0000\u001b[31mname\n.txt', `${'n'.repeat(9996)}.txt`, ''];
    const files = names.map((name, i) =>
      fake.files.host({ name, bytes: `file ${i}`, mimetype: 'text/plain' }),
    );
    const env = fake.injectMessage({ channel, text: 'odd names', files });
    await fake.waitForMessages(1, channel);
    const ts = tsOf(env);
    // An empty name is Slack's `file-<id>`; every path is the inbox's own, whatever the name said.
    const shown = names.map((n, i) => n || `file-${files[i]?.id}`);
    expect(asked()).toBe(
      ['odd names', ...shown.map((n, i) => savedLine('document', n, `file ${i}`, channel, ts))].join('\n'),
    );
    for (const [i, n] of shown.entries()) {
      expect(pathOf(channel, ts, n)).toMatch(/^inbox\/[A-Za-z0-9._-]+\/[A-Za-z0-9._-]+$/);
      expect(inWorkspace(pathOf(channel, ts, n))).toBe(`file ${i}`);
    }
  });
});
