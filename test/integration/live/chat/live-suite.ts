// The live view of a turn in a chat (live.md §2, §3), run against each platform's fake by its driver: the real
// adapter, gateway and worker on Redis, the fake model streaming its answers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRuntimeHarness, type RuntimeHarness } from '../../../helpers/runtime-harness.ts';
import { waitFor } from '../../../helpers/wait.ts';

/** A message of the bot in one chat: every text it showed, oldest first. */
export interface BotMessage {
  id: string;
  versions: string[];
  deleted: boolean;
}

export interface LiveChatDriver {
  name: string;
  /** The channel key `main` answers. */
  key: string;
  /** The platform fake starts; its [channels] table (with `keys` in it) and peer group for the harness. */
  start(): Promise<void>;
  channelToml(keys: string): string;
  close(): Promise<void>;
  /** A user message in a chat of its own; returns the chat's handle. */
  say(text: string): Promise<string>;
  messages(chat: string): BotMessage[];
  /** When the platform received each successful post or edit in the chat, in order. */
  writeTimes(chat: string): number[];
  /** The user deletes one of the bot's messages: its later edits fail. */
  userDeletes(chat: string, id: string): void;
}

export const LIVE_KEYS = `stream_after_ms = 800
stream_edit_interval_ms = 1000
progress_after_ms = 2000
approval_timeout_secs = 4`;

const agentsToml = (key: string) => `
[providers.models.custom.main]
uri = "\${MODEL_URI}"
model = "main-model"

[providers.models.custom.writer]
uri = "\${MODEL_URI}"
model = "writer-model"

[providers.models.custom.checker]
uri = "\${MODEL_URI}"
model = "checker-model"

[reliability]
provider_retries = 0

[risk_profiles.ops]
delegation_policy = { mode = "allow" }
auto_approve = ["delegate"]
always_ask = ["file_read"]

[agents.main]
model_provider = "custom.main"
risk_profile = "ops"
delegates = ["writer", "checker"]
channels = ["${key}"]

[agents.writer]
model_provider = "custom.writer"
risk_profile = "ops"

[agents.checker]
model_provider = "custom.checker"
risk_profile = "ops"
`;

/** An answer of plain words (no Markdown, nothing a platform escapes), streamed in `n` pieces. */
const words = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}${i} `);
const last = (m: BotMessage) => m.versions.at(-1) ?? '';
const visible = (d: LiveChatDriver, chat: string) => d.messages(chat).filter((m) => !m.deleted);

export function liveChatSuite(
  d: LiveChatDriver,
  opts: { keys?: string } = {},
): { harness: () => RuntimeHarness } {
  let h: RuntimeHarness;
  beforeAll(async () => {
    await d.start();
    h = await createRuntimeHarness(
      `live-${d.name}`,
      `${agentsToml(d.key)}${d.channelToml(opts.keys ?? LIVE_KEYS)}`,
      {
        platformChannels: true,
      },
    );
  });
  afterAll(async () => {
    await h?.close();
    await d.close();
  });
  beforeEach(() => h.server.reset());

  const answered = (chat: string, text: string) =>
    waitFor(
      () => visible(d, chat).some((m) => last(m).trim() === text.trim()),
      30_000,
      `"${text}" in ${chat}`,
    );

  describe(`${d.name}: live view of a turn in the chat`, () => {
    it('grows a slow answer in one preview message, edited at most once a second, that becomes the answer', async () => {
      const chunks = words('alpha', 16);
      const full = chunks.join('').trim();
      h.server.script([{ textChunks: chunks, chunkDelayMs: 250 }], { model: 'main-model' });
      const chat = await d.say('tell me slowly');
      await answered(chat, full);
      const [message, ...others] = d.messages(chat);
      expect(others).toEqual([]);
      expect(message!.versions.length).toBeGreaterThanOrEqual(3);
      expect(message!.versions[0]!.trim().length).toBeGreaterThanOrEqual(20);
      for (const v of message!.versions) expect(full.startsWith(v.trim())).toBe(true);
      // Live shows are paced from the platform's answer; the answer's own edit (the last write) is not held back.
      const times = d.writeTimes(chat).slice(0, -1);
      for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(1000);
    });

    it('sends a quick answer once, without a preview', async () => {
      h.server.script([{ textChunks: ['a quick answer ', 'of several words'] }], { model: 'main-model' });
      const chat = await d.say('quick one');
      await answered(chat, 'a quick answer of several words');
      expect(d.messages(chat).map((m) => m.versions)).toEqual([['a quick answer of several words']]);
    });

    it('removes text the model replaced with tool calls from the preview', async () => {
      const thinking = words('pondering', 8);
      h.server.script(
        [
          {
            textChunks: thinking,
            chunkDelayMs: 400,
            toolCalls: [{ id: 'd1', name: 'delegate', arguments: { agent: 'writer', prompt: 'draft it' } }],
          },
          { text: 'final answer after the draft' },
        ],
        { model: 'main-model' },
      );
      // The draft takes a while: the preview has an edit to spare while it is written.
      h.server.script([{ text: 'the draft', delayMs: 2500 }], { model: 'writer-model' });
      const chat = await d.say('draft something');
      await answered(chat, 'final answer after the draft');
      const preview = d.messages(chat).find((m) => m.versions.some((v) => v.startsWith('pondering0')));
      expect(preview).toBeDefined();
      const replaced = preview!.versions.indexOf('…');
      expect(replaced).toBeGreaterThan(0);
      expect(last(preview!)).toBe('final answer after the draft');
      expect(d.messages(chat).filter((m) => last(m).includes('pondering'))).toEqual([]);
    });

    it('sends the answer as a new message when the preview cannot be edited any more', async () => {
      const chunks = words('beta', 14);
      const full = chunks.join('').trim();
      h.server.script([{ textChunks: chunks, chunkDelayMs: 250 }], { model: 'main-model' });
      const chat = await d.say('answer me, then lose the preview');
      await waitFor(() => d.messages(chat).length > 0, 30_000, 'the preview');
      d.userDeletes(chat, d.messages(chat)[0]!.id);
      await answered(chat, full);
      expect(visible(d, chat).map((m) => m.versions)).toEqual([[full]]);
    });

    it('shows a parallel fan-out in the progress message, and ends it as a summary', async () => {
      h.server.script(
        [
          {
            toolCalls: [
              { id: 'p1', name: 'delegate', arguments: { parallel: ['writer', 'checker'], prompt: 'go' } },
            ],
          },
          { text: 'both are done' },
        ],
        { model: 'main-model' },
      );
      h.server.script([{ text: 'W', delayMs: 4000 }], { model: 'writer-model' });
      h.server.script([{ text: 'C', delayMs: 4000 }], { model: 'checker-model' });
      const chat = await d.say('fan out');
      const running = (v: string) =>
        /writer \(delegate[^)]*\): (thinking|running)/.test(v) &&
        /checker \(delegate[^)]*\): (thinking|running)/.test(v);
      await waitFor(
        () => d.messages(chat).some((m) => m.versions.some(running)),
        30_000,
        'both children running in the progress message',
      );
      await answered(chat, 'both are done');
      // messages() is a fresh snapshot on every call: look the progress message up again each time.
      const progress = () => d.messages(chat).find((m) => m.versions.some(running))!;
      await waitFor(() => last(progress()).startsWith('✔️ Done in'), 30_000, 'the summary');
      expect(last(progress())).toMatch(/2 child runs \((writer, checker|checker, writer)\)/);
    });

    it('shows a pending approval and where it was sent in the progress message', async () => {
      h.server.script(
        [
          { toolCalls: [{ id: 'r1', name: 'file_read', arguments: { path: 'notes.txt' } }] },
          { text: 'could not read it' },
        ],
        { model: 'main-model' },
      );
      const chat = await d.say('read my notes');
      await waitFor(
        () =>
          d
            .messages(chat)
            .some((m) =>
              m.versions.some((v) => v.includes('file_read waits for approval (sent to this chat)')),
            ),
        30_000,
        'the pending approval in the progress message',
      );
      await answered(chat, 'could not read it');
    });
  });

  return { harness: () => h };
}
