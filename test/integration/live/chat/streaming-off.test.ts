// live.md §2 step 6 and §3 on Telegram: with `streaming = "off"` a slow streamed answer is sent once, complete,
// as a new message; `progress` still shows a delegation's progress message (or nothing, when off too).
import { afterEach, describe, expect, it } from 'vitest';
import { lastText, startTelegramFleet, type TelegramFleet, words } from '../../../helpers/telegram-fleet.ts';
import { waitFor } from '../../../helpers/wait.ts';

const CHAT = 811;
let f: TelegramFleet;
afterEach(async () => {
  await f.close();
});

async function fleet(keys: string): Promise<void> {
  f = await startTelegramFleet(
    'streaming-off',
    `stream_edit_interval_ms = 1000\nprogress_after_ms = 1000\n${keys}`,
  );
  await f.gateway();
  await f.worker();
}

/** 20 words, 250 ms apart: with streaming on, a preview would be posted and edited several times. */
function slowAnswer(): { turn: { textChunks: string[]; chunkDelayMs: number }; full: string } {
  const chunks = words('omega', 20);
  return { turn: { textChunks: chunks, chunkDelayMs: 250 }, full: chunks.join('').trim() };
}

/** The answer is in the chat and nothing more can come: no turn left to run, every outbox entry handled. */
async function answered(full: string): Promise<void> {
  await waitFor(() => f.visible(CHAT).some((m) => lastText(m) === full), 60_000, 'the answer');
  await waitFor(async () => (await f.turnsIdle()) && (await f.outboxDrained()), 30_000, 'an idle fleet');
}

const edits = () =>
  f.tg.calls.filter((c) => c.method === 'editMessageText' && Number(c.params.chat_id) === CHAT);

describe('streaming off', () => {
  it('and progress off: a slow answer arrives as one message, never edited', async () => {
    await fleet('streaming = "off"\nprogress = "off"');
    const { turn, full } = slowAnswer();
    f.model.script([turn], { model: 'main-model' });
    f.say(CHAT, 'tell me slowly');
    await answered(full);
    expect(f.visible(CHAT).map((m) => m.versions)).toEqual([[full]]);
    expect(edits()).toEqual([]);
  });

  it('with progress on: a slow delegation shows its progress message, and the answer is a new message', async () => {
    await fleet('streaming = "off"\nprogress = "compact"');
    const { turn, full } = slowAnswer();
    f.model.script(
      [
        { toolCalls: [{ id: 'd1', name: 'delegate', arguments: { agent: 'writer', prompt: 'draft it' } }] },
        turn,
      ],
      { model: 'main-model' },
    );
    f.model.script([{ text: 'the draft', delayMs: 3000 }], { model: 'writer-model' });
    f.say(CHAT, 'draft something');
    const running = (v: string) => /writer \(delegate[^)]*\): (thinking|running)/.test(v);
    await waitFor(
      () => f.visible(CHAT).some((m) => m.versions.some(running)),
      30_000,
      'the writer in the progress message',
    );
    await answered(full);
    const [progress, answer, ...others] = f.visible(CHAT);
    expect(others).toEqual([]);
    expect(progress!.versions.some(running)).toBe(true);
    expect(lastText(progress!)).toMatch(/^✔️ Done in/);
    // The answer: one send, never edited, and no partial answer ever shown anywhere in the chat.
    expect(answer!.versions).toEqual([full]);
    const shown = f.visible(CHAT).flatMap((m) => m.versions);
    expect(shown.filter((v) => v.includes('omega') && v.trim() !== full)).toEqual([]);
  });
});
