// Telegram files end to end in one process: the fake Bot API ↔ real grammy adapter ↔ gateway intake (download
// and store before the update is confirmed) ↔ Redis inbox ↔ worker (workspace inbox, media.md §1 lines, image
// parts: the model has `vision = true`) ↔ fake model. Each turn's model request is held while the test reads the
// queued event (the inbox head stays until the turn settles).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Attachment } from '../../../src/media/attachment.ts';
import { createBlobStore } from '../../../src/media/blob-store.ts';
import { attachmentReasons } from '../../../src/media/media-messages.ts';
import { inboxKeys } from '../../../src/queue/names.ts';
import { lastUserPartsOf, type UserPart } from '../../fakes/model-requests.ts';
import { fileMessage } from '../../fakes/telegram-files.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { VISION_AGENT_TOML } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const MIB = 1024 * 1024;
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3]);
let tg: FakeTelegram;
let h: RuntimeHarness;

const toml = (url: string) => `
${VISION_AGENT_TOML}

[channels.telegram.home]
enabled = true
bot_token = "T1"
api_base_url = "${url}/"
max_attachment_mb = 1
mention_only = true

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["7"]
`;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  h = await createRuntimeHarness('telegram-files', toml(tg.url), { platformChannels: true });
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});
beforeEach(() => h.server.reset());

const replies = (chat: number, count: number) =>
  waitFor(() => tg.sentTo(chat).length >= count, 30_000, `${count} replies in ${chat}`).then(() =>
    tg.sentTo(chat).map((s) => s.message.text),
  );

interface HeldTurn {
  text: string;
  attachments: Attachment[];
  /** The newest user message the model was shown, as its parts. */
  parts: UserPart[];
  /** Where this message's files are saved in the agent's workspace: `<inbox folder>/<chat>_<message id>-`. */
  saved: string;
}

/** Sends a message and holds its turn's model request while reading the queued event; then lets it answer. */
async function turnOf(chat: number, extra: Record<string, unknown>): Promise<HeldTurn> {
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  h.server.respond(() => ({ text: 'seen', until: gate }));
  const before = h.server.requests.length;
  const { message } = tg.injectMessage({ chat, from: 7, extra });
  await h.server.waitForRequests(before + 1, 30_000);
  const raw = await h.redis.lindex(inboxKeys(spaceOf(h.prefix)).inbox(`telegram.home:${chat}:`), 0);
  release();
  await replies(chat, 1);
  const event = JSON.parse(raw ?? 'null') as { text: string; attachments: Attachment[] };
  const request = h.server.requests[before];
  return {
    text: event.text,
    attachments: event.attachments,
    parts: request ? lastUserPartsOf(request) : [],
    saved: `inbox/telegram.home_${chat}_/${chat}_${message.message_id}-`,
  };
}

const workspaceFile = (rel: string) => readFileSync(join(h.dataDir, 'workspaces', 'main', rel));
const text = (t: string): UserPart => ({ type: 'text', text: t });

const blob = (key: string | undefined) => createBlobStore(h.redis).get(key ?? '');

describe('telegram files into a turn', () => {
  it('stores a captioned photo before the turn; the model gets the caption, its line and the image', async () => {
    const file = tg.files.addFile({ bytes: JPEG, path: 'photos/file_1.jpg' });
    const turn = await turnOf(30, fileMessage('photo', file, { caption: 'what is this?' }));
    expect(turn.text).toBe('what is this?');
    expect(turn.attachments).toEqual([
      {
        kind: 'image',
        name: `photo-${file.file_unique_id}.jpg`,
        size: JPEG.byteLength,
        mime: 'image/jpeg',
        blob: expect.stringMatching(new RegExp(`^${h.prefix}:blob:in:`)),
      },
    ]);
    expect(await blob(turn.attachments[0]?.blob)).toEqual(JPEG);
    const name = `photo-${file.file_unique_id}.jpg`;
    expect(turn.parts).toEqual([
      text(`what is this?\n[attachment: image ${name}, 14 B, saved as ${turn.saved}${name}]`),
      { type: 'image', mediaType: 'image/jpeg', base64: JPEG.toString('base64') },
    ]);
    expect(workspaceFile(`${turn.saved}${name}`)).toEqual(JPEG);
    expect(tg.files.downloads('photos/file_1.jpg')).toBe(1);
  });

  it('makes a photo without a caption a turn', async () => {
    const file = tg.files.addFile({ bytes: JPEG });
    const turn = await turnOf(31, fileMessage('photo', file));
    expect(turn.text).toBe('');
    expect(turn.attachments).toMatchObject([
      { kind: 'image', size: JPEG.byteLength, blob: expect.any(String) },
    ]);
    const name = `photo-${file.file_unique_id}.jpg`;
    expect(turn.parts).toEqual([
      text(`[attachment: image ${name}, 14 B, saved as ${turn.saved}${name}]`),
      { type: 'image', mediaType: 'image/jpeg', base64: JPEG.toString('base64') },
    ]);
  });

  it('downloads a redelivered photo once and starts one turn', async () => {
    const file = tg.files.addFile({ bytes: JPEG, path: 'photos/dup.jpg' });
    h.server.respond(() => ({ text: 'seen' }));
    const { updateId, message } = tg.injectMessage({ chat: 32, from: 7, extra: fileMessage('photo', file) });
    await replies(32, 1);
    tg.injectUpdate({ message }, { updateId, redeliver: true });
    tg.injectMessage({ chat: 32, from: 7, text: 'after the dup' });
    // Same conversation, in order: had the redelivery been taken, its turn would come before this one.
    await replies(32, 2);
    expect(h.server.requests.map(askedOf).at(-1)).toBe('after the dup');
    expect(h.server.requests).toHaveLength(2);
    expect(tg.files.downloads('photos/dup.jpg')).toBe(1);
    expect(tg.calls.filter((c) => c.method === 'getFile' && c.params.file_id === file.file_id)).toHaveLength(
      1,
    );
  });

  it('fetches nothing over max_attachment_mb, and the turn still runs', async () => {
    const big = tg.files.addFile({ bytes: 'x', claimedSize: 2 * MIB });
    const calls = tg.calls.length;
    const turn = await turnOf(33, fileMessage('document', big, { fileName: 'big.zip', caption: 'here' }));
    expect(turn.attachments).toEqual([
      { kind: 'document', name: 'big.zip', size: 2 * MIB, failed: 'larger than the 1 MB limit' },
    ]);
    expect(turn.parts).toEqual([
      text('here\n[attachment: document big.zip, 2.0 MB, not downloaded: larger than the 1 MB limit]'),
    ]);
    expect(tg.calls.slice(calls).filter((c) => c.method === 'getFile')).toEqual([]);
    expect(tg.files.downloads(big.file_path)).toBe(0);
  });

  it('explains an unknown file id and a refused download, and runs the turn', async () => {
    const gone = turnOf(34, {
      caption: 'old one',
      document: { file_id: 'expired-id', file_unique_id: 'AgADgone', file_name: 'old.pdf' },
    });
    expect((await gone).attachments).toEqual([
      { kind: 'document', name: 'old.pdf', failed: attachmentReasons.notFound },
    ]);
    expect((await gone).parts).toEqual([
      text(
        'old one\n[attachment: document old.pdf, size unknown, not downloaded: the platform no longer has this file]',
      ),
    ]);

    const refused = tg.files.addFile({ bytes: JPEG });
    tg.files.failDownload(refused.file_path, { status: 403 });
    const turn = await turnOf(35, fileMessage('photo', refused, { caption: 'this one' }));
    expect(turn.attachments).toMatchObject([{ kind: 'image', failed: attachmentReasons.refused(403) }]);
    expect(turn.attachments[0]?.blob).toBeUndefined();
    expect(turn.parts).toEqual([
      text(
        `this one\n[attachment: image photo-${refused.file_unique_id}.jpg, 14 B, not downloaded: the platform refused the download (HTTP 403)]`,
      ),
    ]);
    expect(tg.files.downloads(refused.file_path)).toBe(1);
  });

  it('saves a document named ../../etc/passwd inside the inbox under a safe name', async () => {
    const file = tg.files.addFile({ bytes: 'root:x:0:0' });
    const turn = await turnOf(
      36,
      fileMessage('document', file, { fileName: '../../etc/passwd', mime: 'text/plain' }),
    );
    expect(turn.attachments).toMatchObject([{ kind: 'document', name: '../../etc/passwd', size: 10 }]);
    expect((await blob(turn.attachments[0]?.blob))?.toString()).toBe('root:x:0:0');
    expect(turn.parts).toEqual([
      text(`[attachment: document _.._etc_passwd, 10 B, saved as ${turn.saved}_.._etc_passwd]`),
    ]);
    expect(workspaceFile(`${turn.saved}_.._etc_passwd`).toString()).toBe('root:x:0:0');
  });

  it('explains a zero-byte file without fetching it, and takes a "photo" whose bytes are no image as a file', async () => {
    const empty = tg.files.addFile({ bytes: '' });
    const zero = await turnOf(
      39,
      fileMessage('document', empty, { fileName: 'empty.txt', caption: 'empty' }),
    );
    expect(zero.attachments).toEqual([
      { kind: 'document', name: 'empty.txt', size: 0, failed: attachmentReasons.empty },
    ]);
    expect(zero.parts).toEqual([
      text('empty\n[attachment: document empty.txt, 0 B, not downloaded: the file is empty]'),
    ]);
    expect(tg.files.downloads(empty.file_path)).toBe(0);
    const pdf = tg.files.addFile({ bytes: '%PDF-1.4 not a jpeg' });
    const lie = await turnOf(40, fileMessage('photo', pdf, { caption: 'a photo, supposedly' }));
    expect(lie.attachments).toMatchObject([
      { kind: 'file', name: `photo-${pdf.file_unique_id}.jpg`, size: 19 },
    ]);
    // No image part: the bytes decide, not the claim.
    const name = `photo-${pdf.file_unique_id}.jpg`;
    expect(lie.parts).toEqual([
      text(`a photo, supposedly\n[attachment: file ${name}, 19 B, saved as ${lie.saved}${name}]`),
    ]);
  });

  it('downloads nothing for an unaddressed group photo or an unauthorised sender', async () => {
    const file = tg.files.addFile({ bytes: JPEG, path: 'photos/ignored.jpg' });
    h.server.respond(() => ({ text: 'seen' }));
    tg.injectMessage({ chat: -37, from: 7, extra: fileMessage('photo', file, { caption: 'no mention' }) });
    tg.injectMessage({ chat: 38, from: user(666, 'mallory'), extra: fileMessage('photo', file) });
    tg.injectMessage({ chat: -37, from: 7, text: '@baton_test_bot after' });
    await replies(-37, 1);
    // Updates are handled in order per chat, and the refused sender's before the offset moved past it.
    await waitFor(() => tg.pending(0, 100).length === 0, 20_000, 'every update confirmed');
    expect(tg.files.downloads('photos/ignored.jpg')).toBe(0);
    expect(h.server.requests.map(askedOf)).toEqual(['@baton_test_bot after']);
  });
});
