// Slack files into a turn (media.md §1): the real Bolt adapter in Socket Mode against the fake Slack, the real
// gateway and worker on Redis. Each file is fetched once with the bot token, stored before the envelope is acked,
// and the turn runs whatever became of it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blobKeys, createBlobStore } from '../../../src/media/blob-store.ts';
import { type FakeSlackServer, startFakeSlack } from '../../fakes/slack-server.ts';
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
    expect(h.server.requests).toHaveLength(1);
  });

  it('makes a file with no text a turn', async () => {
    const channel = freshChannel();
    const png = fake.files.host({ name: 'shot.png', bytes: 'not really a png', mimetype: 'image/png' });
    const env = fake.injectMessage({ channel, files: [png] });
    await fake.waitForMessages(1, channel);
    expect(h.server.requests).toHaveLength(1);
    expect((await stored(channel, tsOf(env)))?.toString()).toBe('not really a png');
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
    expect(h.server.requests).toHaveLength(1);
  });

  it('runs the turn when Slack refuses the download (403, sign-in page) or the URL is on another host', async () => {
    const channel = freshChannel();
    const files = [
      fake.files.host({ name: 'a.pdf', bytes: PDF, behaviour: { status: 403 } }),
      fake.files.host({ name: 'b.pdf', bytes: PDF, behaviour: 'login' }),
      fake.files.host({
        name: 'c.pdf',
        bytes: PDF,
        extra: { url_private_download: `${foreignUrl}/files-pri/T0FAKE-F1/download/c.pdf` },
      }),
    ];
    const env = fake.injectMessage({ channel, text: 'three files', files });
    await fake.waitForMessages(1, channel);
    expect(h.server.requests).toHaveLength(1);
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
    expect(h.server.requests).toHaveLength(1);
    for (const i of [0, 1, 2, 3]) expect((await stored(channel, tsOf(env), i))?.toString()).toBe(`file ${i}`);
  });
});
