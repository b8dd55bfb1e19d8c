// `baton start` as a child process with Telegram, Discord and Slack (Socket Mode) pointed at their fakes: the same
// five cases on each platform, from a message in to the reply out, over real Redis, BullMQ and the real libraries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STOP_REQUESTED, TURN_ABORTED } from '../../../src/channel-host/channel-messages.ts';
import { allPartitions } from '../../../src/core/key-layout.ts';
import { runningTurnsKeyOf } from '../../../src/fleet/running-turns.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { waitFor } from '../../helpers/wait.ts';
import { createLane, HOLD, type Lane } from './lane.ts';
import { discordDriver, type PlatformDriver, type Post, slackDriver, telegramDriver } from './platforms.ts';

const WORDS = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `w${String(from + i).padStart(4, '0')}`);
const paragraphs = (words: string[]) =>
  Array.from({ length: Math.ceil(words.length / 20) }, (_, i) =>
    words.slice(i * 20, i * 20 + 20).join(' '),
  ).join('\n\n');
const CODE = Array.from({ length: 130 }, (_, i) => `line ${String(i).padStart(4, '0')} = compute(${i})`);
const PROSE_A = WORDS(0, 550);
const PROSE_B = WORDS(550, 450);
/** About 9000 characters: prose, a ~2900-character fenced block (over Discord's limit), more prose. */
const LONG = `${paragraphs(PROSE_A)}\n\n\`\`\`python\n${CODE.join('\n')}\n\`\`\`\n\n${paragraphs(PROSE_B)}`;

let lane: Lane;
const drivers: PlatformDriver[] = [];

beforeAll(async () => {
  lane = await createLane('channels', LONG);
  drivers.push(await telegramDriver(), await discordDriver(), await slackDriver());
  const { path } = await lane.writeConfig('channels', drivers.map((d) => d.toml).join('\n'));
  await lane.start('start', path);
  await Promise.all(drivers.map((d) => d.ready()));
}, 60_000);

afterAll(async () => {
  await lane?.close();
  for (const d of drivers) await d.close();
});

const driver = (name: string) => drivers.find((d) => d.name === name) as PlatformDriver;

async function postsIn(d: PlatformDriver, place: string, count: number, timeoutMs = 30_000): Promise<Post[]> {
  await waitFor(() => d.posts(place).length >= count, timeoutMs, `${count} ${d.name} posts in ${place}`);
  return d.posts(place);
}

const fenceLines = (s: string) => s.split('\n').filter((l) => /^ {0,3}```/.test(l)).length;
const count = (s: string, what: string) => s.split(what).length - 1;

describe.each(['telegram', 'discord', 'slack'])('%s', (name) => {
  it('answers in the chat, and in the thread (forum topic) it was asked in', async () => {
    const d = driver(name);
    const chat = d.place('chat');
    const thread = d.place('thread');
    d.say(chat, 'hello chat');
    d.say(thread, 'hello thread');
    expect(await postsIn(d, chat, 1)).toEqual([
      expect.objectContaining({ text: 'echo: hello chat', inThread: true }),
    ]);
    expect(await postsIn(d, thread, 1)).toEqual([
      expect.objectContaining({ text: 'echo: hello thread', inThread: true }),
    ]);
  });

  it('sends a 9000-character reply as chunks under the limit, each with its code fences balanced', async () => {
    const d = driver(name);
    const chat = d.place('chat');
    d.say(chat, `long: ${name}`);
    const words = [...PROSE_A, ...PROSE_B];
    // Every word and code line arrives, once and in order: the reply reassembles.
    const arrived = () =>
      d
        .posts(chat)
        .map((p) => p.text)
        .join('\n');
    await waitFor(() => arrived().includes(words.at(-1) as string), 30_000, `the last ${name} chunk`);
    const posts = d.posts(chat);
    expect(posts.length).toBeGreaterThanOrEqual(Math.ceil(LONG.length / d.limit));
    expect(arrived().match(/w\d{4}/g)).toEqual(words);
    expect(arrived().match(/line \d{4} = compute\(\d+\)/g)).toEqual(CODE);
    for (const p of posts) {
      expect([...p.text].length).toBeLessThanOrEqual(d.limit);
      expect(fenceLines(p.source) % 2).toBe(0);
      expect(count(p.source, '<pre')).toBe(count(p.source, '</pre>'));
    }
    // Every chunk holding code shows it as code: a block cut between chunks is closed and reopened.
    const withCode = posts.filter((p) => p.text.includes('compute('));
    for (const p of withCode) expect(fenceLines(p.source) >= 2 || count(p.source, '<pre') >= 1).toBe(true);
    if (name === 'discord') expect(withCode.length).toBeGreaterThanOrEqual(2);
  });

  it('answers a burst of 50 messages in one chat with 50 replies in order', async () => {
    const d = driver(name);
    const chat = d.place('chat');
    const texts = Array.from({ length: 50 }, (_, i) => `n${i + 1}`);
    for (const t of texts) d.say(chat, t);
    const posts = await postsIn(d, chat, 50, 60_000);
    expect(posts.map((p) => p.text)).toEqual(texts.map((t) => `echo: ${t}`));
  });

  it('starts no model request for an unauthorised sender', async () => {
    const d = driver(name);
    const thread = d.place('thread');
    d.say(thread, `let me in ${name}`, 'mallory');
    d.say(thread, `after mallory ${name}`);
    // The pipeline is live: the authorised message sent afterwards is answered (and nothing else is).
    expect((await postsIn(d, thread, 1)).map((p) => p.text)).toEqual([`echo: after mallory ${name}`]);
    expect(lane.requestsWith(`let me in ${name}`)).toHaveLength(0);
    expect(d.posts(thread)).toHaveLength(1);
  });

  it('/stop aborts the running turn: the notices arrive and the model request is cut off', async () => {
    const d = driver(name);
    const chat = d.place('chat');
    const held = lane.requestsWith(HOLD).length;
    const space = spaceOf(lane.prefix);
    const marks = async () =>
      (
        await Promise.all(allPartitions(space).map((n) => lane.redis.hkeys(runningTurnsKeyOf(space, n))))
      ).flat();
    const before = new Set(await marks());
    d.say(chat, HOLD);
    await waitFor(() => lane.requestsWith(HOLD).length > held, 30_000, 'the held model request');
    const request = lane.requestsWith(HOLD)[held];
    // /stop reads the turn's running mark: wait for it rather than for time.
    await waitFor(async () => (await marks()).some((m) => !before.has(m)), 10_000, 'the running mark');
    d.say(chat, '/stop');
    const posts = await postsIn(d, chat, 2);
    expect(posts.map((p) => p.text).sort()).toEqual([STOP_REQUESTED, TURN_ABORTED].sort());
    await waitFor(() => request?.clientClosed === true, 10_000, 'the model request closed');
  });
});
