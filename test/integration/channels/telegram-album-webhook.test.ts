// A Telegram album in webhook mode: its parts come as separate POSTs through the gateway's real HTTP server; they
// are one turn, and each POST is answered only once that merged event is in the inbox.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createChannelAdapters } from '../../../src/roles/channel-adapters.ts';
import { type GatewayRole, startGatewayRole } from '../../../src/roles/gateway-role.ts';
import { lastUserPartsOf } from '../../fakes/model-requests.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { type FakeTgFile, fileMessage } from '../../fakes/telegram-files.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { messageUpdate, newUpdateId, postTelegramUpdate } from '../../fakes/telegram-webhook.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import { createRuntimeHarness, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { loadTestConfig, VISION_AGENT_TOML } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const SECRET = 'tg-album-secret_1';
const jpeg = (n: number) =>
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, n]);
let tg: FakeTelegram;
let h: RuntimeHarness;
let url: string;

const toml = (apiUrl: string) => `
${VISION_AGENT_TOML}

[channels.telegram.hook]
enabled = true
bot_token = "T1"
api_base_url = "${apiUrl}"
webhook_url = "https://bot.example.test/telegram/hook/webhook"
webhook_secret = "${SECRET}"

[peer_groups.tg]
channel = "telegram.hook"
agents = ["main"]
external_peers = ["7"]
`;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  h = await createRuntimeHarness('tg-album-hook', toml(tg.url), { platformChannels: true, ops: {} });
  url = `${h.opsUrl}/telegram/hook/webhook`;
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond(() => ({ text: 'seen' }));
});

const replies = (chat: number, count: number) =>
  waitFor(() => tg.sentTo(chat).length >= count, 30_000, `${count} replies in ${chat}`);
const partsOf = (i: number) => lastUserPartsOf(h.server.requests[i] as RecordedRequest);
const photos = (tag: string, count = 3) =>
  Array.from({ length: count }, (_, i) =>
    tg.files.addFile({ bytes: jpeg(i + 1), path: `photos/${tag}_${i + 1}.jpg` }),
  );

/** One update per photo, all in album `group`; the caption on the first. */
function albumUpdates(chat: number, group: string, files: FakeTgFile[], caption?: string) {
  return files.map((f, i) => {
    const { text: _text, ...bare } = messageUpdate({ chat, from: 7, text: '' }).message;
    const photo = fileMessage('photo', f, i === 0 && caption ? { caption } : {});
    return { update_id: newUpdateId(), message: { ...bare, ...photo, media_group_id: group } };
  });
}
const post = (update: unknown) => postTelegramUpdate(url, SECRET, update).then((r) => r.status);

describe('telegram albums in webhook mode', () => {
  it('makes three POSTed parts one turn, each answered only once the album is in the inbox', async () => {
    const files = photos('w');
    let release = () => {};
    tg.files.failDownload('photos/w_1.jpg', {
      until: new Promise<void>((r) => {
        release = r;
      }),
    });
    const answered: number[] = [];
    const posts = albumUpdates(60, 'wg-60', files, 'all three?').map((u, i) =>
      post(u).then((status) => {
        answered.push(i);
        return status;
      }),
    );
    // The merged event is being stored (its first file is held): no part may be confirmed yet.
    await waitFor(() => tg.files.downloads('photos/w_1.jpg') === 1, 20_000, 'the album being stored');
    expect(answered).toEqual([]);
    release();
    expect(await Promise.all(posts)).toEqual([200, 200, 200]);
    await replies(60, 1);
    expect(h.server.requests).toHaveLength(1);
    const parts = partsOf(0);
    expect(parts.filter((p) => p.type === 'image')).toHaveLength(3);
    expect(parts[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^all three\?\n/) });
  });

  it('starts nothing when the album or one part is POSTed again, and downloads each file once', async () => {
    const files = photos('r');
    const updates = albumUpdates(61, 'wg-61', files, 'once');
    expect(await Promise.all(updates.map(post))).toEqual([200, 200, 200]);
    await replies(61, 1);
    expect(await Promise.all(updates.map(post))).toEqual([200, 200, 200]);
    expect(await post(updates[2])).toBe(200);
    expect(await post(messageUpdate({ chat: 61, from: 7, text: 'after' }))).toBe(200);
    await replies(61, 2);
    expect(h.server.requests.map(askedOf).at(-1)).toBe('after');
    expect(h.server.requests).toHaveLength(2);
    for (const n of [1, 2, 3]) expect(tg.files.downloads(`photos/r_${n}.jpg`)).toBe(1);
  });

  it('starts nothing for an album redelivered to a gateway that never saw it (same event id, files reused)', async () => {
    const files = photos('g');
    const updates = albumUpdates(63, 'wg-63', files, 'elsewhere');
    expect(await Promise.all(updates.map(post))).toEqual([200, 200, 200]);
    await replies(63, 1);
    const { config, load } = loadTestConfig(h.configText);
    const logger = createSilentLogger();
    let other: GatewayRole | null = null;
    try {
      other = await startGatewayRole({
        config: { ...config, gateway: { ...config.gateway, port: 0 } },
        ops: load,
        logger,
        redis: h.redis,
        adapters: await createChannelAdapters(config, logger),
      });
      const viaOther = `${other.opsUrl}/telegram/hook/webhook`;
      const statuses = await Promise.all(
        updates.map((u) => postTelegramUpdate(viaOther, SECRET, u).then((r) => r.status)),
      );
      expect(statuses).toEqual([200, 200, 200]);
    } finally {
      await other?.close(1000);
    }
    expect(await post(messageUpdate({ chat: 63, from: 7, text: 'after' }))).toBe(200);
    await replies(63, 2);
    expect(h.server.requests.map(askedOf).at(-1)).toBe('after');
    expect(h.server.requests).toHaveLength(2);
    for (const n of [1, 2, 3]) expect(tg.files.downloads(`photos/g_${n}.jpg`)).toBe(1);
  });

  it('makes a part POSTed after its album was handed over a turn of its own', async () => {
    const [early, late] = albumUpdates(62, 'wg-62', photos('l', 2), 'two');
    expect(await post(early)).toBe(200);
    await replies(62, 1);
    expect(await post(late)).toBe(200);
    await replies(62, 2);
    expect(h.server.requests).toHaveLength(2);
    expect(partsOf(1).filter((p) => p.type === 'image')).toEqual([
      { type: 'image', mediaType: 'image/jpeg', base64: jpeg(2).toString('base64') },
    ]);
  });
});
