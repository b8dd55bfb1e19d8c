// `npm run demo:media`: files both ways on the real queues and processes, with the test fakes standing in for
// Telegram and a model with vision. A user sends a screenshot with a question; baton stores it before Telegram
// is told, the worker saves it in the agent's workspace and shows the model the image; the agent writes a
// report and sends it back with send_file, after its answer. Needs only Redis on 127.0.0.1:6379.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { startFakeModelServer } from '../fakes/model-server.ts';
import { fileMessage } from '../fakes/telegram-files.ts';
import { startFakeTelegram } from '../fakes/telegram-server.ts';
import { user } from '../fakes/telegram-wire.ts';
import { startBaton } from '../helpers/baton-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { DEMO_BOT_TOKEN, USER_CHAT, USER_ID } from './demo-config.ts';
import { mediaDemoToml } from './media-demo-config.ts';
import { mediaDemoModel } from './media-demo-model.ts';

const QUESTION = 'The checkout page shows this. What is wrong?';
const TIMEOUT_MS = 60_000;

/** A real PNG (640×360, one colour): what a phone's screenshot is to the bytes-sniffing intake. */
function screenshot(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const [w, h] = [640, 360];
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3, 0xd0)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: h }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const model = await startFakeModelServer();
model.respond(mediaDemoModel);
const telegram = await startFakeTelegram({ token: DEMO_BOT_TOKEN });
const redis = testRedis();
const prefix = uniquePrefix('demo-media');
const dir = mkdtempSync(join(tmpdir(), 'baton-demo-media-'));
const configPath = join(dir, 'baton.toml');
writeFileSync(
  configPath,
  mediaDemoToml({
    redisUrl: REDIS_URL,
    prefix,
    dataDir: dir,
    port: await freePort(),
    modelUrl: model.openaiBaseUrl,
    telegramUrl: telegram.url,
  }),
);

const say = (who: string, text: string) => process.stdout.write(`[telegram home] ${who}: ${text}\n`);
const baton = startBaton(['start', '--config', configPath]);
let exitCode = 0;
try {
  process.stdout.write('baton demo: a screenshot in, a report out (Telegram, a model with vision)\n\n');
  await baton.waitFor(/baton gateway \+ worker running/, TIMEOUT_MS);
  await telegram.waitForCall((c) => c.method === 'getUpdates', TIMEOUT_MS, 'Telegram polling');

  const png = screenshot();
  const file = telegram.files.addFile({ bytes: png, path: 'photos/file_0.png' });
  say('alice', `[photo, ${png.length} bytes] ${QUESTION}`);
  telegram.injectMessage({
    chat: USER_CHAT,
    from: user(USER_ID, 'alice'),
    extra: fileMessage('photo', file, { caption: QUESTION }),
  });

  const answer = await telegram.waitForCalls((c) => c.method === 'sendMessage', 1, TIMEOUT_MS, 'the answer');
  say('baton', String(answer[0]?.params.text ?? ''));
  await telegram.waitForCall((c) => c.method === 'sendDocument', TIMEOUT_MS, 'the report upload');
  const upload = telegram.files.uploads[0]!;
  say(
    'baton',
    `[${upload.method.replace('send', '').toLowerCase()} ${upload.filename}, ${upload.bytes.length} bytes] ${upload.caption ?? ''}`,
  );
  process.stdout.write(`\n--- ${upload.filename} ---\n${upload.bytes.toString('utf8')}`);
  const seen = model.requests[0];
  const line = JSON.stringify(seen?.body.messages?.at(-1)?.content ?? '').match(
    /\[attachment: [^\]]+\]/,
  )?.[0];
  process.stdout.write(`\nThe model was shown the image and the line: ${line ?? '(none)'}\n`);
  process.stdout.write(
    `Telegram downloads of the screenshot: ${telegram.files.downloads('photos/file_0.png')}\n`,
  );
  process.stdout.write(
    '\nDone: the screenshot reached the model, and the report came back after the answer.\n',
  );
} catch (err) {
  exitCode = 1;
  process.stderr.write(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.stderr.write(`${baton.output().slice(-4000)}\n`);
} finally {
  baton.kill('SIGTERM');
  await baton.exited;
  await Promise.allSettled([telegram.close(), model.close()]);
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
