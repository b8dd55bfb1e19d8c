// Two gateways taking one redelivered update at the same moment (a webhook retry landing on another process)
// download its file once: the first claims the fetch in Redis, the second waits for the stored bytes.
import { afterAll, describe, expect, it } from 'vitest';
import { createAttachmentIntake } from '../../../src/channel-host/attachment-intake.ts';
import type { InboundMessage } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { AttachmentFetchError } from '../../../src/media/attachment.ts';
import { createBlobStore } from '../../../src/media/blob-store.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const redis = testRedis();
const prefix = uniquePrefix('intake-claim');
afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function gateway(download: (source: string) => Promise<Uint8Array>) {
  return createAttachmentIntake({
    blobs: createBlobStore(redis),
    prefix,
    logger: createSilentLogger(),
    adapterOf: () => ({ download }),
    limitBytesOf: () => 1024 * 1024,
  });
}

const event = (eventId: string): InboundMessage => ({
  kind: 'message',
  channel: 'telegram.main',
  eventId,
  chat: '1',
  sender: { id: 'u' },
  text: '',
  attachments: [{ kind: 'image', name: 'photo.jpg', source: 'file-1' }],
  isDirect: true,
  addressedToBot: true,
  receivedAt: new Date().toISOString(),
});

describe('the fetch claim', () => {
  it('downloads a file once when two gateways take the same update at once', async () => {
    let downloads = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const slow = async () => {
      downloads++;
      await held;
      return PNG;
    };
    const first = gateway(slow).store(event('e1'));
    // The second starts once the first holds the claim (its download has begun).
    while (downloads === 0) await new Promise((r) => setImmediate(r));
    const second = gateway(slow).store(event('e1'));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(downloads).toBe(1);
    expect(a.attachments).toEqual(b.attachments);
    expect(b.attachments?.[0]).toMatchObject({ kind: 'image', mime: 'image/png', size: PNG.length });
  });

  it('lets the waiter fetch the file itself when the first fetch failed', async () => {
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const failing = async () => {
      calls++;
      await held;
      throw new AttachmentFetchError('the platform refused the download (HTTP 502)');
    };
    const first = gateway(failing).store(event('e2'));
    while (calls === 0) await new Promise((r) => setImmediate(r));
    const second = gateway(async () => {
      calls++;
      return PNG;
    }).store(event('e2'));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.attachments?.[0]?.failed).toBe('the platform refused the download (HTTP 502)');
    expect(b.attachments?.[0]).toMatchObject({ kind: 'image', size: PNG.length });
    expect(calls).toBe(2);
  });

  it('reads the kind from stored bytes on a redelivery, as on the first delivery', async () => {
    const text = Buffer.from('not an image at all');
    const g = gateway(async () => text);
    const once = await g.store(event('e3'));
    const again = await g.store(event('e3'));
    expect(once.attachments?.[0]).toEqual(again.attachments?.[0]);
    expect(again.attachments?.[0]).toMatchObject({ kind: 'file', size: text.length });
    expect(again.attachments?.[0]?.mime).toBeUndefined();
  });
});
