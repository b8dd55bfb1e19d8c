// A channel approval on Telegram end to end (approvals.md §12.2): the runtime posts the card with its inline
// keyboard through grammy to the fake Bot API, the right user's press approves, the callback query is answered
// with the ack, and the card is edited to its outcome without buttons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import { type FakeTelegram, startFakeTelegram } from '../../fakes/telegram-server.ts';
import { user } from '../../fakes/telegram-wire.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';
import { scriptWrites } from './approval-helpers.ts';

const ALICE = user(7, 'alice');
const MALLORY = user(66, 'mallory');
const CHAT = -4001;

let tg: FakeTelegram;
let h: RuntimeHarness;

beforeAll(async () => {
  tg = await startFakeTelegram({ token: 'T1' });
  h = await createRuntimeHarness(
    'telegram-approvals',
    runtimeToml(`
[channels.telegram.home]
enabled = true
bot_token = "T1"
api_base_url = "${tg.url}"

[peer_groups.tg]
channel = "telegram"
agents = ["main"]
external_peers = ["7"]
`),
    { platformChannels: true },
  );
});
afterAll(async () => {
  await h?.close();
  await tg?.close();
});

describe('approvals on Telegram', () => {
  it('posts the card with inline buttons; the right user approves; the press is answered and the card edited', async () => {
    scriptWrites(h, 'tg.txt');
    tg.injectMessage({ chat: { id: CHAT, type: 'group', title: 'dev' }, from: ALICE, text: 'write it' });
    await waitFor(() => tg.sentTo(CHAT).some((s) => s.message.reply_markup), 30_000, 'the card');
    const card = tg.sentTo(CHAT).find((s) => s.message.reply_markup)!;
    expect(card.message.text).toBe(
      '🔧 Tool approval required\n\nTool: file_write\nArgs: path: tg.txt, content: hi\n\nTap a button below:',
    );
    const buttons = card.message.reply_markup!.inline_keyboard.flat();
    expect(buttons.map((b) => b.text)).toEqual(['✅ Approve', '❌ Deny', '✅✅ Always']);
    const approve = buttons[0]!.callback_data!;
    expect(approve).toMatch(/^approval:[0-9a-f-]{36}:approve$/);

    // Someone who is no peer of main: answered with the §11 text, nothing changes.
    const bad = tg.injectCallback({ message: card.message, from: MALLORY, data: approve });
    const refused = await tg.waitForCall(
      (c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === bad.id,
      30_000,
      'the refused press answered',
    );
    expect(refused.params.text).toBe('⚠️ You are not authorized to answer this approval request.');
    expect(card.message.reply_markup).toBeDefined();

    const good = tg.injectCallback({ message: card.message, from: ALICE, data: approve });
    const answered = await tg.waitForCall(
      (c) => c.method === 'answerCallbackQuery' && c.params.callback_query_id === good.id,
      30_000,
      'the press answered',
    );
    expect(answered.params.text).toBe('✅ Approved');
    await waitFor(() => card.message.reply_markup === undefined, 30_000, 'the keyboard removed');
    expect(card.message.text).toBe(
      '🔧 Tool approval required\n\nTool: file_write\nArgs: path: tg.txt, content: hi\n\n✅ Approved by alice (7)',
    );
    await h.server.waitForRequests(2, 30_000);
    expect(toolResultsOf(h.server.requests[1]!).at(-1)?.content).toMatch(/^Wrote 2 bytes to .*tg\.txt$/);
    await waitFor(() => tg.sentTo(CHAT).some((s) => s.message.text === 'done'), 30_000, 'the answer');
  });
});
