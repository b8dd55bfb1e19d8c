// What a turn's user message says of its files (media.md §1), end to end: the local channel's download, the
// gateway's intake into Redis, the worker writing them into the workspace inbox, and the model's request.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIB } from '../../../src/media/attachment.ts';
import { blobKeys } from '../../../src/media/blob-store.ts';
import { lastUserPartsOf } from '../../fakes/model-requests.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { filesUnder, mediaToml, PNG, sendFiles, workspaceOf } from './media-fixture.ts';

let h: RuntimeHarness;
/** The primary (`fake-model`) answers HTTP 500 while set: the fallback serves. */
let primaryDown = false;
let release: (() => void) | null = null;
let held: Promise<void> | null = null;

beforeAll(async () => {
  h = await createRuntimeHarness(
    'media-lines',
    mediaToml({ vision: true, extra: '[transcription]\nprovider = "custom.plain"\n' }),
  );
  h.server.respond((r) => {
    if (held) {
      const gate = held;
      held = null;
      return { text: 'later', until: gate };
    }
    if (primaryDown && r.body.model === 'fake-model') return { status: 500 };
    return { text: 'seen' };
  });
});
afterAll(async () => {
  await h?.close();
});

const inWorkspace = (rel: string) => readFileSync(join(workspaceOf(h.dataDir), rel));

describe('worker: attachments become the lines of media.md §1', () => {
  it('an image: a vision model gets the caption, the saved-as line and the image itself', async () => {
    const s = await sendFiles(
      h,
      'img',
      [{ kind: 'image', name: 'photo.png', bytes: PNG, mime: 'image/png' }],
      'what is this?',
    );
    expect(s.requests).toHaveLength(1);
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text: `what is this?\n[attachment: image photo.png, ${PNG.length} B, saved as ${s.rel('photo.png')}]`,
      },
      { type: 'image', mediaType: 'image/png', base64: PNG.toString('base64') },
    ]);
    expect(inWorkspace(s.rel('photo.png')).equals(PNG)).toBe(true);
    expect(s.rel('photo.png')).toBe('inbox/local.test_img_/evt-img-photo.png');
  });

  it('an image served by a fallback without vision: the line alone, no image part', async () => {
    primaryDown = true;
    try {
      const s = await sendFiles(h, 'img-fb', [{ kind: 'image', name: 'shot.png', bytes: PNG }]);
      expect(s.requests.map((r) => r.body.model)).toEqual(['fake-model', 'plain-model']);
      expect(lastUserPartsOf(s.requests[0]!).map((p) => p.type)).toEqual(['text', 'image']);
      expect(lastUserPartsOf(s.requests[1]!)).toEqual([
        {
          type: 'text',
          text: `[attachment: image shot.png, ${PNG.length} B, saved as ${s.rel('shot.png')}]`,
        },
      ]);
    } finally {
      primaryDown = false;
    }
  });

  it('a document: its saved-as line, bytes as sent', async () => {
    const pdf = Buffer.from('%PDF-1.4\n% a report\n');
    const s = await sendFiles(
      h,
      'doc',
      [{ kind: 'document', name: 'Q3 report.pdf', bytes: pdf }],
      'summarise',
    );
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text: `summarise\n[attachment: document Q3_report.pdf, ${pdf.length} B, saved as ${s.rel('Q3 report.pdf')}]`,
      },
    ]);
    expect(inWorkspace(s.rel('Q3 report.pdf')).equals(pdf)).toBe(true);
  });

  it('a voice note with [transcription]: the transcript line, then the saved-as line', async () => {
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(60, 7)]);
    h.server.scriptTranscripts([{ text: '  call me back at five  ' }]);
    const before = h.server.transcriptions.length;
    const s = await sendFiles(h, 'voice', [
      { kind: 'voice', name: 'voice.ogg', bytes: ogg, mime: 'audio/ogg' },
    ]);
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text: `[voice transcript] call me back at five\n[attachment: voice voice.ogg, ${ogg.length} B, saved as ${s.rel('voice.ogg')}]`,
      },
    ]);
    const [t] = h.server.transcriptions.slice(before);
    expect(t?.model).toBe('whisper-1');
    expect(t?.path).toBe('/v1/audio/transcriptions');
    expect(t?.file.bytes.equals(ogg)).toBe(true);
  });

  it('a transcription the provider refuses: the saved-as line alone, no provider text', async () => {
    const ogg = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(30, 1)]);
    h.server.scriptTranscripts([{ status: 400, message: 'secret provider detail' }]);
    const s = await sendFiles(h, 'voice-bad', [{ kind: 'audio', name: 'memo.ogg', bytes: ogg }]);
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      { type: 'text', text: `[attachment: audio memo.ogg, ${ogg.length} B, saved as ${s.rel('memo.ogg')}]` },
    ]);
  });

  it('a file over the limit: not downloaded, and the turn still runs', async () => {
    const before = h.local.downloads.length;
    const s = await sendFiles(h, 'big', [
      { kind: 'document', name: 'huge.zip', bytes: Buffer.from('tiny'), size: 21 * MIB },
      { kind: 'document', name: 'unclaimed.bin', bytes: Buffer.alloc(20 * MIB + 1), size: null },
    ]);
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text:
          '[attachment: document huge.zip, 21.0 MB, not downloaded: larger than the 20 MB limit]\n' +
          '[attachment: document unclaimed.bin, size unknown, not downloaded: larger than the 20 MB limit]',
      },
    ]);
    // The claimed size was refused before any download; the unclaimed one stopped at the limit.
    expect(h.local.downloads.slice(before)).toEqual(['local-file:evt-big:1']);
  });

  it('a zero-byte file, a missing one and a refused one: their reasons', async () => {
    const s = await sendFiles(h, 'bad', [
      { kind: 'document', name: 'empty.txt', bytes: Buffer.alloc(0) },
      { kind: 'document', name: 'gone.txt' },
      { kind: 'image', name: 'private.png', bytes: PNG, refuseStatus: 403 },
    ]);
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text:
          '[attachment: document empty.txt, 0 B, not downloaded: the file is empty]\n' +
          '[attachment: document gone.txt, size unknown, not downloaded: the platform no longer has this file]\n' +
          `[attachment: image private.png, ${PNG.length} B, not downloaded: the platform refused the download (HTTP 403)]`,
      },
    ]);
  });

  it('a MIME type that lies: claimed image/png, bytes are text: kind file, no image part', async () => {
    const text = Buffer.from('just some text\n');
    const s = await sendFiles(h, 'liar', [
      { kind: 'image', name: 'fake.png', bytes: text, mime: 'image/png' },
    ]);
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      { type: 'text', text: `[attachment: file fake.png, ${text.length} B, saved as ${s.rel('fake.png')}]` },
    ]);
  });

  it('odd names: nothing is written outside <workspace>/inbox', async () => {
    const before = filesUnder(h.dataDir);
    const long = `${'x'.repeat(9_996)}.txt`;
    const s = await sendFiles(h, '../../etc', [
      { kind: 'document', name: '../../etc/passwd', bytes: Buffer.from('root:x:0:0') },
      { kind: 'document', name: 'a\u0000b\nc\u202e.txt', bytes: Buffer.from('ctl') },
      { kind: 'document', name: long, bytes: Buffer.from('long') },
      { kind: 'document', name: '..', bytes: Buffer.from('dots') },
    ]);
    const ws = 'workspaces/main/';
    const added = filesUnder(h.dataDir).filter((f) => !before.includes(f));
    expect(added).toEqual(
      [
        `${ws}inbox/local.test_.._.._etc_/evt-.._.._etc-_.._etc_passwd`,
        `${ws}inbox/local.test_.._.._etc_/evt-.._.._etc-a_b_c_.txt`,
        `${ws}inbox/local.test_.._.._etc_/evt-.._.._etc-${'x'.repeat(96)}.txt`,
        `${ws}inbox/local.test_.._.._etc_/evt-.._.._etc-file`,
      ].sort(),
    );
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text: [
          `[attachment: document _.._etc_passwd, 10 B, saved as ${s.rel('../../etc/passwd')}]`,
          `[attachment: document a_b_c_.txt, 3 B, saved as ${s.rel('a\u0000b\nc\u202e.txt')}]`,
          `[attachment: document ${'x'.repeat(96)}.txt, 4 B, saved as ${s.rel(long)}]`,
          `[attachment: document file, 4 B, saved as ${s.rel('..')}]`,
        ].join('\n'),
      },
    ]);
  });

  it('two files of one message with one name: both kept, the second under its position', async () => {
    const s = await sendFiles(h, 'twins', [
      { kind: 'document', name: 'a.txt', bytes: Buffer.from('one') },
      { kind: 'document', name: 'a.txt', bytes: Buffer.from('two') },
    ]);
    const second = 'inbox/local.test_twins_/evt-twins-2-a.txt';
    expect(lastUserPartsOf(s.requests[0]!)).toEqual([
      {
        type: 'text',
        text: `[attachment: document a.txt, 3 B, saved as ${s.rel('a.txt')}]\n[attachment: document a.txt, 3 B, saved as ${second}]`,
      },
    ]);
    expect(inWorkspace(s.rel('a.txt')).toString()).toBe('one');
    expect(inWorkspace(second).toString()).toBe('two');
  });

  it('an expired blob: the turn runs with its not-downloaded line', async () => {
    // The chat's first turn is held at the model, so the second message waits in the inbox while its blob expires.
    held = new Promise<void>((r) => {
      release = r;
    });
    await h.local.inject({ chat: 'exp', text: 'first', eventId: 'exp-1' });
    const pdf = Buffer.from('%PDF-1.4 expiring');
    await h.local.inject({
      chat: 'exp',
      text: 'second',
      eventId: 'exp-2',
      files: [{ kind: 'document', name: 'a.pdf', bytes: pdf }],
    });
    const key = blobKeys(h.prefix).inbound('local.test', 'exp-2', 0);
    expect(await h.redis.del(key)).toBe(1);
    const before = h.server.requests.length;
    release?.();
    await h.local.waitForReplies(2, { chat: 'exp', timeoutMs: 30_000 });
    expect(lastUserPartsOf(h.server.requests[before]!)).toEqual([
      {
        type: 'text',
        text: `second\n[attachment: document a.pdf, ${pdf.length} B, not downloaded: the stored copy expired before the turn ran]`,
      },
    ]);
  });
});
