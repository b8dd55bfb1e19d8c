// The Discord channel end to end: the real discord.js against the fake Discord, the real gateway/worker runtime on
// Redis, routing and peer_groups from the TOML, and the fake model.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DISCORD_MAX_MESSAGE_LENGTH } from '../../../channels/discord/discord-adapter.ts';
import { ChannelRateLimitError, type InboundAction } from '../../../src/channel-host/types.ts';
import { type FakeDiscordServer, startFakeDiscordServer } from '../../fakes/discord-server.ts';
import type { RecordedRequest } from '../../fakes/model-server.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';

const ALICE = '100000000000000001';
const LONG = Array.from({ length: 900 }, (_, i) => `w${i}`).join(' ');

let discord: FakeDiscordServer;
let h: RuntimeHarness;
const presses: InboundAction[] = [];

const lastUserText = (req: RecordedRequest) =>
  String((req.body.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '');
/** What the model was asked, one entry per turn. */
const asked = () => h.server.requests.map(lastUserText);
const adapter = () => {
  const found = h.adapters.find((a) => a.key === 'discord.test');
  if (!found) throw new Error('no discord adapter');
  return found;
};
/** The bot's reply with this text (waits for it). */
const replyWith = (text: string) =>
  discord.waitFor(() => discord.sent.find((m) => m.content === text), `a reply "${text}"`);

beforeAll(async () => {
  discord = await startFakeDiscordServer();
  const toml = runtimeToml(`
[channels.discord.test]
enabled = true
bot_token = "${discord.token}"
api_base_url = "${discord.apiUrl}"
mention_only = true

[peer_groups.discord]
channel = "discord"
agents = ["main"]
external_peers = ["${ALICE}", "@bob"]
`);
  h = await createRuntimeHarness('discord-channel', toml, {
    actions: {
      async handle(action) {
        presses.push(action);
        await adapter().edit(
          { channel: action.channel, chat: action.chat, messageId: action.messageId },
          { text: `pressed ${action.actionId}` },
        );
        return { notice: `noticed ${action.actionId}` };
      },
    },
    platformChannels: true,
  });
});
afterAll(async () => {
  await h?.close();
  await discord?.close();
});
beforeEach(() => {
  h.server.reset();
  h.server.respond((req) => {
    const text = lastUserText(req);
    if (text.includes('be long')) return { text: LONG };
    if (text.includes('think slowly')) return { text: 'slow answer', delayMs: 2500 };
    return { text: `echo: ${text}` };
  });
  presses.length = 0;
});

describe('discord channel', () => {
  it('answers a mention in a text channel, a DM and a reply in a thread, each where it was asked', async () => {
    discord.injectMessage({ content: 'hello channel', mentionBot: true });
    const inChannel = await replyWith('echo: hello channel');
    expect(inChannel.channel_id).toBe(discord.textChannelId);

    discord.injectMessage({ dmUserId: ALICE, content: 'hello dm' });
    const inDm = await replyWith('echo: hello dm');
    expect(inDm.guild_id).toBeUndefined();
    expect(discord.channels.get(inDm.channel_id)?.type).toBe(1);

    discord.injectMessage({ channelId: discord.threadId, content: 'start thread', mentionBot: true });
    const first = await replyWith('echo: start thread');
    // A reply to the bot's message addresses the bot without a mention.
    discord.injectMessage({ channelId: discord.threadId, content: 'follow up', replyTo: first.id });
    const second = await replyWith('echo: follow up');
    expect([first.channel_id, second.channel_id]).toEqual([discord.threadId, discord.threadId]);
  });

  it('with mention_only, starts no turn for a guild message that neither mentions nor replies to the bot', async () => {
    discord.injectMessage({ content: 'just chatting' });
    discord.injectMessage({ content: 'sentinel mention', mentionBot: true });
    await replyWith('echo: sentinel mention');
    expect(asked()).toEqual(['sentinel mention']);
  });

  it('sends a reply longer than 2000 characters as ordered chunks that reassemble it', async () => {
    const before = discord.sent.length;
    discord.injectMessage({ content: 'please be long', mentionBot: true });
    const chunks = await discord.waitFor(() => {
      const mine = discord.sent.slice(before).filter((m) => m.channel_id === discord.textChannelId);
      return mine.map((m) => m.content).join(' ').length >= LONG.length ? mine : undefined;
    }, 'the chunks');
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.content.length).toBeLessThanOrEqual(DISCORD_MAX_MESSAGE_LENGTH);
    expect(chunks.map((c) => c.content).join(' ')).toBe(LONG);
  });

  it('round-trips a button: press acknowledged, action handled, notice shown to the presser, buttons edited away', async () => {
    const ref = await adapter().send(
      { channel: 'discord.test', chat: discord.textChannelId },
      {
        text: 'Approve?',
        buttons: [
          [
            { id: 'ap:1', label: 'Approve', style: 'primary' },
            { id: 'dn:1', label: 'Deny', style: 'danger' },
          ],
        ],
      },
    );
    const sent = discord.messages.get(ref.messageId);
    expect(sent?.components[0]?.components.map((b) => [b.custom_id, b.style])).toEqual([
      ['ap:1', 1],
      ['dn:1', 4],
    ]);
    const interactionId = discord.pressButton({ messageId: ref.messageId, customId: 'ap:1' });
    const edit = await discord.waitFor(
      () => discord.edits.find((e) => e.messageId === ref.messageId),
      'the edit',
    );
    expect(edit.body).toMatchObject({ content: 'pressed ap:1', components: [] });
    expect(discord.messages.get(ref.messageId)?.components).toEqual([]);
    expect(discord.interactionCallbacks).toContainEqual({ interactionId, type: 6 });
    // The handler's notice reaches the presser alone: an ephemeral follow-up on the interaction's token.
    const followUp = await discord.waitFor(
      () => discord.calls.find((c) => c.method === 'POST' && c.path.startsWith('/webhooks/')),
      'the follow-up',
    );
    expect(followUp.path).toMatch(new RegExp(`/token-${interactionId}$`));
    expect(followUp.body).toMatchObject({ content: 'noticed ap:1', flags: 64 });
    expect(presses).toEqual([
      expect.objectContaining({
        kind: 'action',
        channel: 'discord.test',
        eventId: interactionId,
        chat: discord.textChannelId,
        sender: { id: ALICE, username: 'alice' },
        actionId: 'ap:1',
        messageId: ref.messageId,
      }),
    ]);
  });

  it('shows typing in the channel while a slow turn runs', async () => {
    discord.injectMessage({ channelId: discord.threadId, content: 'think slowly', mentionBot: true });
    await discord.waitFor(() => (discord.typings.includes(discord.threadId) ? true : undefined), 'typing');
    await replyWith('slow answer');
  });

  it('starts no model request for an unauthorised sender; a username in peer_groups is authorised', async () => {
    discord.injectMessage({ content: 'let me in', mentionBot: true, authorId: '999', username: 'mallory' });
    discord.injectMessage({ content: 'bob here', mentionBot: true, authorId: '555', username: 'Bob' });
    await replyWith('echo: bob here');
    expect(asked()).toEqual(['bob here']);
  });

  it('skips malformed and unexpected updates and keeps working', async () => {
    discord.gateway.sendRaw('{not json');
    discord.gateway.dispatch('MESSAGE_CREATE', { id: '1', channel_id: discord.textChannelId });
    discord.gateway.dispatch('MESSAGE_CREATE', { id: '2', author: { id: '3', username: 'x' } });
    discord.gateway.dispatch('INTERACTION_CREATE', { id: '4', type: 3 });
    discord.gateway.dispatch('SOMETHING_NEW', { hello: 'world' });
    discord.injectMessage({
      content: 'from a bot',
      mentionBot: true,
      authorId: '777',
      username: 'otherbot',
      bot: true,
    });
    discord.injectMessage({ content: 'joined', mentionBot: true, type: 7 });
    discord.injectMessage({ content: '', stickers: [{ id: '9', name: 'wave' }] });
    // A file alone is a turn only where it is addressed to the bot (mention_only): this one is not.
    discord.injectMessage({ content: '', attachments: [{ filename: 'a.png', content_type: 'image/png' }] });
    discord.injectMessage({ content: 'still here', mentionBot: true });
    await replyWith('echo: still here');
    expect(asked()).toEqual(['still here']);
  });

  it('redelivered messages after a RESUME give one turn, and a message sent while disconnected arrives', async () => {
    const before = discord.gateway.seq;
    const resumes = discord.gateway.events.filter((e) => e.kind === 'resume').length;
    discord.injectMessage({ content: 'only once', mentionBot: true });
    await replyWith('echo: only once');
    discord.gateway.drop({ replayAfterSeq: before });
    discord.injectMessage({ content: 'while away', mentionBot: true });
    await discord.waitForSessions('resume', resumes + 1);
    expect(discord.gateway.events.filter((e) => e.kind === 'resume').at(-1)?.replayed).toBeGreaterThanOrEqual(
      3,
    );
    await replyWith('echo: while away');
    expect(asked()).toEqual(['only once', 'while away']);
    expect(discord.sent.filter((m) => m.content === 'echo: only once')).toHaveLength(1);
  });

  it('recovers from the API answering 500 with nothing lost', async () => {
    // discord.js retries a 500 three times itself; the fourth failure reaches the reply pump, which retries later.
    discord.failNext(
      { status: 500, match: (method, path) => method === 'POST' && path.endsWith('/messages') },
      5,
    );
    discord.injectMessage({ content: 'despite errors', mentionBot: true });
    await replyWith('echo: despite errors');
    const failed = discord.calls.filter((c) => c.status === 500);
    expect(failed).toHaveLength(5);
  });

  it('honours a 429 retry_after: the pump waits the time Discord names before sending again', async () => {
    discord.failNext({
      status: 429,
      retryAfterSec: 2,
      match: (m, p) => m === 'POST' && p.endsWith('/messages'),
    });
    discord.injectMessage({ content: 'rate me', mentionBot: true });
    await replyWith('echo: rate me');
    const limited = discord.calls.filter((c) => c.status === 429).at(-1);
    const delivered = discord.calls.find(
      (c) => c.status === 200 && (c.body as { content?: string })?.content === 'echo: rate me',
    );
    expect(limited && delivered).toBeTruthy();
    expect((delivered?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1900);
  });

  it('surfaces a long rate limit from send as ChannelRateLimitError with the wait', async () => {
    discord.failNext({ status: 429, retryAfterSec: 5 });
    const send = adapter().send({ channel: 'discord.test', chat: discord.textChannelId }, { text: 'x' });
    const err = await send.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChannelRateLimitError);
    expect((err as ChannelRateLimitError).retryAfterMs).toBeGreaterThanOrEqual(5000);
  });
});
