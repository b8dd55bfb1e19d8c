// `npm run demo`: the approval story on the real queues and processes, with the test fakes standing in for
// Telegram, Slack and the model. A user asks in Telegram; `main` delegates to the independent `sysadmin`, whose
// `shell` call needs approval; the card appears in the Slack ops room; the ops lead presses Approve; the answer
// reaches the user. Both chats are printed as they happen. Needs only Redis on 127.0.0.1:6379.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { slackDialect } from '../../channels/slack/dialect.ts';
import { startFakeModelServer } from '../fakes/model-server.ts';
import { startFakeSlack } from '../fakes/slack-server.ts';
import { startFakeTelegram } from '../fakes/telegram-server.ts';
import { user } from '../fakes/telegram-wire.ts';
import { startBaton } from '../helpers/baton-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { DEMO_BOT_TOKEN, demoToml, OPS_LEAD, OPS_ROOM, USER_CHAT, USER_ID } from './demo-config.ts';
import { demoModel } from './demo-model.ts';
import { createChatPrinter } from './demo-printer.ts';

const QUESTION = 'Is the disk on the server filling up?';
const TIMEOUT_MS = 60_000;

const model = await startFakeModelServer();
model.respond(demoModel);
const telegram = await startFakeTelegram({ token: DEMO_BOT_TOKEN });
const slack = await startFakeSlack();
const redis = testRedis();
const prefix = uniquePrefix('demo');
const dir = mkdtempSync(join(tmpdir(), 'baton-demo-'));
const configPath = join(dir, 'baton.toml');
writeFileSync(
  configPath,
  demoToml({
    redisUrl: REDIS_URL,
    prefix,
    dataDir: dir,
    port: await freePort(),
    modelUrl: model.openaiBaseUrl,
    telegramUrl: telegram.url,
    slackUrl: slack.apiUrl,
  }),
);

const printer = createChatPrinter(telegram, slack);
const baton = startBaton(['start', '--config', configPath]);
let exitCode = 0;
try {
  process.stdout.write(`baton demo: Telegram (home) ↔ main → sysadmin, approvals in Slack #ops\n\n`);
  await baton.waitFor(/baton gateway \+ worker running/, TIMEOUT_MS);
  await telegram.waitForCall((c) => c.method === 'getUpdates', TIMEOUT_MS, 'Telegram polling');
  await slack.socket.waitForConnections(1, TIMEOUT_MS);

  printer.user('telegram', 'alice', QUESTION);
  telegram.injectMessage({ chat: USER_CHAT, from: user(USER_ID, 'alice'), text: QUESTION });

  const card = await slack.waitFor(
    () => slack.messages.find((m) => m.channel === OPS_ROOM && approveButton(m.blocks)),
    'the approval card in #ops',
    TIMEOUT_MS,
  );
  printer.flush();
  const approve = approveButton(card.blocks) as string;
  printer.user('slack', 'ops-lead', 'presses [Approve]');
  slack.press({ messageTs: card.ts, actionId: approve, user: OPS_LEAD, username: 'ops-lead' });

  await telegram.waitForCalls(
    (c) => c.method === 'sendMessage' && String(c.params.text ?? '').includes('sysadmin'),
    1,
    TIMEOUT_MS,
    "main's answer in Telegram",
  );
  printer.flush();
  process.stdout.write('\nDone: the answer reached the user after the ops room approved the call.\n');
} catch (err) {
  exitCode = 1;
  printer.flush();
  process.stderr.write(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.stderr.write(`${baton.output().slice(-4000)}\n`);
  for (const r of model.requests) {
    const last = r.body.messages?.at(-1);
    process.stderr.write(
      `model request ${r.body.model}: tools ${(r.body.tools ?? []).map((t) => JSON.stringify(t).slice(0, 50)).join(' ')} last ${last?.role} ${JSON.stringify(last?.content).slice(0, 300)}\n`,
    );
  }
} finally {
  printer.stop();
  baton.kill('SIGTERM');
  await baton.exited;
  await Promise.allSettled([telegram.close(), slack.close(), model.close()]);
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);

/** The action id of the card's Approve button, if these blocks carry one. */
function approveButton(blocks: unknown): string | undefined {
  type Element = { action_id?: string; value?: string };
  const elements = (Array.isArray(blocks) ? (blocks as Array<{ elements?: Element[] }>) : []).flatMap(
    (b) => b.elements ?? [],
  );
  return elements.find(
    (e) => e.action_id && slackDialect.parseApprovalPress(e.action_id, e.value)?.action === 'approve',
  )?.action_id;
}
