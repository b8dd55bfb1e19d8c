// The cron_* tools: channel-triggered cron end to end through a chat turn, and every input refusal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Recipient } from '../../../src/channel-host/types.ts';
import { cronTexts, scheduleErrors } from '../../../src/cron/cron-messages.ts';
import type { CronScheduler } from '../../../src/queue/cron-scheduler.ts';
import type { Tool } from '../../../src/run-contract/tool.ts';
import { createCronTools } from '../../../src/tools/cron/cron-tools.ts';
import { transcriptOf } from '../../fakes/model-requests.ts';
import { type AgentHarness, createAgentHarness, toolResultIn } from '../../helpers/agent-harness.ts';
import { buildRunContext } from '../../helpers/run-context.ts';
import { waitFor } from '../../helpers/wait.ts';
import { attachCron, type CronFixture } from './cron-fixture.ts';
import { readDeliveries } from './recording-outbox.ts';

const TOML = `
[providers.models.custom.fake]
uri = "\${MODEL_URI}"
model = "fake-model"

[reliability]
provider_retries = 0

[risk_profiles.default]
auto_approve = ["cron_add", "cron_list", "cron_remove", "cron_run"]

[risk_profiles.asking]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"

[agents.asker]
model_provider = "custom.fake"
risk_profile = "asking"

# An agent whose config declares a delivery chat: its own cron job posts to the ops digest chat.
[agents.reporter]
model_provider = "custom.fake"
risk_profile = "default"
cron_jobs = ["digest"]

[cron.digest]
job_type = "agent"
enabled = false
schedule = { kind = "cron", expr = "0 7 * * *" }
prompt = "digest"
delivery = { channel = "telegram.main", recipient = "ops-42" }
`;

const CHAT: Recipient = { channel: 'telegram.main', chat: 'chat-7', thread: 'topic-3' };

let h: AgentHarness;
let cron: CronFixture;
let scheduler: CronScheduler;
const chatKey = () => `${h.prefix}:test-chat`;

beforeAll(async () => {
  h = await createAgentHarness('cron-tools', TOML);
  cron = attachCron(h, { outboxKey: chatKey() });
  scheduler = cron.scheduler;
});
afterAll(async () => {
  await cron.close();
  await h.close();
});
beforeEach(() => h.server.reset());

describe('channel-triggered cron', () => {
  it('a job created with cron_add from a chat delivers its runs to that chat, and cron_remove stops it', async () => {
    // Cron runs answer "pong"; the chat turns follow the script.
    h.server.respond((req) => (transcriptOf(req).includes('[cron:') ? { text: 'pong' } : undefined));
    h.server.script([
      {
        toolCalls: [
          {
            id: 'a1',
            name: 'cron_add',
            arguments: { name: 'pinger', schedule: { kind: 'every', every_ms: 60_000 }, prompt: 'ping' },
          },
        ],
      },
      { text: 'scheduled it' },
    ]);
    await h.turn('main', 'ping me every minute', { origin: CHAT });
    const [job] = await scheduler.list('main');
    expect(job).toMatchObject({ source: 'tool', name: 'pinger', prompt: 'ping', delivery: CHAT });
    expect(toolResultIn(h.server.requests[1]!, 'a1')).toMatch(
      new RegExp(
        `^Scheduled job ${job!.id} \\(next run .+\\); results go to telegram\\.main:chat-7:topic-3$`,
      ),
    );

    // Its first fire is a minute away: cron_run fires it now; the answer reaches the chat (thread included).
    h.server.script([
      { toolCalls: [{ id: 'n1', name: 'cron_run', arguments: { job_id: job!.id } }] },
      { text: 'running it' },
    ]);
    await h.turn('main', 'run it now', { origin: CHAT });
    expect(toolResultIn(h.server.requests[3]!, 'n1')).toBe(cronTexts.queued(job!.id));
    await waitFor(async () => (await readDeliveries(h.redis, chatKey())).length >= 1, 10_000, 'the delivery');
    const [d] = await readDeliveries(h.redis, chatKey());
    expect(d).toMatchObject({ to: CHAT, text: 'pong' });
    expect(d!.key).toMatch(new RegExp(`^cron:run-${job!.id}-[0-9a-f]+$`));
    const cronRequest = h.server.requests.find((r) => transcriptOf(r).includes('[cron:'));
    expect(transcriptOf(cronRequest!)).toContain(`user: [cron:${job!.id} pinger] ping`);

    h.server.script([
      { toolCalls: [{ id: 'r1', name: 'cron_remove', arguments: { job_id: job!.id } }] },
      { text: 'removed' },
    ]);
    const before = h.server.requests.length;
    await h.turn('main', 'stop pinging', { origin: CHAT });
    expect(toolResultIn(h.server.requests[before + 1]!, 'r1')).toBe(cronTexts.removed(job!.id));
    expect(await scheduler.list('main')).toEqual([]);
    expect((await scheduler.inspect()).schedulers).toEqual([]);
  });

  it('a model that asks to post into another chat the bot is in reads the refusal, and nothing is scheduled', async () => {
    const delivery = { channel: 'telegram.main', recipient: 'someone-elses-chat' };
    h.server.script([
      {
        toolCalls: [
          { id: 'f1', name: 'cron_add', arguments: { schedule: '0 9 * * *', prompt: 'spam', delivery } },
        ],
      },
      { text: 'could not' },
    ]);
    await h.turn('main', 'post there every morning', { origin: CHAT });
    expect(toolResultIn(h.server.requests[1]!, 'f1')).toBe(
      `Error: ${cronTexts.foreignRecipient('telegram.main:someone-elses-chat', ['telegram.main:chat-7'])}`,
    );
    expect(await scheduler.list('main')).toEqual([]);
  });

  it('needs approval by default: with no operator the runtime denies cron_add', async () => {
    h.server.script([
      { toolCalls: [{ id: 'a2', name: 'cron_add', arguments: { schedule: '0 9 * * *', prompt: 'x' } }] },
      { text: 'ok' },
    ]);
    await h.turn('asker', 'schedule it', { origin: CHAT });
    expect(toolResultIn(h.server.requests[1]!, 'a2')).toMatch(/runtime denied it by policy/);
    expect(await scheduler.list('asker')).toEqual([]);
  });
});

describe('cron tool input', () => {
  const tools = createCronTools();
  const tool = (name: string): Tool => tools.find((t) => t.name === name)!;
  const call = (
    name: string,
    args: unknown,
    opts: { origin?: Recipient; noCron?: boolean; agent?: string } = {},
  ) => {
    const run = buildRunContext({
      config: h.services.config,
      agentAlias: opts.agent ?? 'main',
      services: opts.noCron ? {} : { cron: scheduler },
    });
    run.origin = opts.origin;
    return tool(name).execute(args, { run, toolCallId: 't', signal: run.signal });
  };
  const refusal = (error: string) => ({ success: false, error });

  it('names what is wrong with a schedule', async () => {
    expect(await call('cron_add', { schedule: 'bogus', prompt: 'p' }, { origin: CHAT })).toMatchObject(
      refusal(scheduleErrors.badExpr('bogus', 'Validation error, cannot resolve alias "bog"')),
    );
    expect(await call('cron_add', { schedule: '61 * * * *', prompt: 'p' }, { origin: CHAT })).toMatchObject(
      refusal("Invalid cron expression '61 * * * *': Constraint error, got value 61 expected range 0-59"),
    );
    expect(
      await call('cron_add', { schedule: '0 9 * * *', tz: 'Mars/Base', prompt: 'p' }, { origin: CHAT }),
    ).toMatchObject(
      refusal("Unknown time zone 'Mars/Base'; use an IANA name such as 'Europe/Paris' or 'UTC'"),
    );
    const past = { kind: 'at', at: '2001-01-01T00:00:00Z' };
    expect(await call('cron_add', { schedule: past, prompt: 'p' }, { origin: CHAT })).toMatchObject(
      refusal(
        "Invalid schedule: '2001-01-01T00:00:00Z' is in the past; a one-off 'at' job must be in the future",
      ),
    );
    expect(
      await call('cron_add', { schedule: { kind: 'at', at: 'tomorrow' }, prompt: 'p' }, { origin: CHAT }),
    ).toMatchObject(refusal(scheduleErrors.badAt('tomorrow')));
    expect(
      await call('cron_add', { schedule: { kind: 'every', every_ms: 10 }, prompt: 'p' }, { origin: CHAT }),
    ).toMatchObject(refusal(scheduleErrors.badEvery()));
    expect(await call('cron_add', { schedule: '0 9 * * *', prompt: '  ' }, { origin: CHAT })).toMatchObject({
      success: false,
    });
    expect(await scheduler.list('main')).toEqual([]);
  });

  it('refuses without an originating chat and without a delivery', async () => {
    expect(await call('cron_add', { schedule: '0 9 * * *', prompt: 'p' })).toMatchObject(
      refusal(cronTexts.noDelivery()),
    );
  });

  it('refuses any chat other than the originating one and the config-declared ones, even on the same channel', async () => {
    const origin = 'telegram.main:chat-7';
    for (const foreign of [
      { channel: 'slack.other', recipient: 'C1' },
      // The bot is in this chat too, but nobody there asked this agent for anything.
      { channel: 'telegram.main', recipient: 'chat-9' },
      // Declared for another agent (reporter), not for main.
      { channel: 'telegram.main', recipient: 'ops-42' },
    ]) {
      const to = `${foreign.channel}:${foreign.recipient}`;
      expect(
        await call('cron_add', { schedule: '0 9 * * *', prompt: 'p', delivery: foreign }, { origin: CHAT }),
        to,
      ).toMatchObject(refusal(cronTexts.foreignRecipient(to, [origin])));
    }
    // The exact text the model reads.
    expect(cronTexts.foreignRecipient('telegram.main:chat-9', [origin])).toBe(
      "Delivery to 'telegram.main:chat-9' refused: cron_add may post only to the chat this conversation is in or to a chat the config declares for this agent (a [cron.<alias>] delivery of its cron_jobs). Allowed: telegram.main:chat-7",
    );
    // A run with no originating chat (a cron run, the one-shot CLI) has only the declared chats: main has none.
    const delivery = { channel: 'telegram.main', recipient: 'chat-7' };
    expect(await call('cron_add', { schedule: '0 9 * * *', prompt: 'p', delivery })).toMatchObject(
      refusal(cronTexts.foreignRecipient('telegram.main:chat-7', [])),
    );
    expect(await scheduler.list('main')).toEqual([]);
  });

  it('accepts the originating chat named explicitly (another thread of it too)', async () => {
    const delivery = { channel: 'telegram.main', recipient: 'chat-7', thread: 'topic-9' };
    const res = await call('cron_add', { schedule: '0 9 * * *', prompt: 'p', delivery }, { origin: CHAT });
    expect(res).toMatchObject({ success: true });
    const [job] = await scheduler.list('main');
    expect(job?.delivery).toEqual({ channel: 'telegram.main', chat: 'chat-7', thread: 'topic-9' });
    expect(await call('cron_remove', { job_id: job!.id })).toMatchObject({ success: true });
  });

  it('accepts a chat the config declares for the agent, with or without an originating chat', async () => {
    const delivery = { channel: 'telegram.main', recipient: 'ops-42' };
    const declared = 'telegram.main:ops-42';
    const fromChat = await call(
      'cron_add',
      { schedule: '0 9 * * *', prompt: 'from chat', delivery },
      { origin: CHAT, agent: 'reporter' },
    );
    expect(fromChat.output).toMatch(new RegExp(`results go to ${declared}$`));
    const noOrigin = await call(
      'cron_add',
      { schedule: '0 9 * * *', prompt: 'no origin', delivery },
      {
        agent: 'reporter',
      },
    );
    expect(noOrigin.output).toMatch(new RegExp(`results go to ${declared}$`));
    // The declared chat is the reporter's only one when no chat started the run.
    const elsewhere = { channel: 'telegram.main', recipient: 'chat-7' };
    expect(
      await call(
        'cron_add',
        { schedule: '0 9 * * *', prompt: 'p', delivery: elsewhere },
        { agent: 'reporter' },
      ),
    ).toMatchObject(refusal(cronTexts.foreignRecipient('telegram.main:chat-7', [declared])));
    const jobs = await scheduler.list('reporter');
    expect(jobs.map((j) => [j.prompt, j.delivery])).toEqual([
      ['from chat', { channel: 'telegram.main', chat: 'ops-42' }],
      ['no origin', { channel: 'telegram.main', chat: 'ops-42' }],
    ]);
    for (const j of jobs) {
      expect(await call('cron_remove', { job_id: j.id }, { agent: 'reporter' })).toMatchObject({
        success: true,
      });
    }
  });

  it('one-off at jobs are accepted with an explicit delivery to this chat, and listed', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const delivery = { channel: 'telegram.main', recipient: 'chat-7' };
    const res = await call(
      'cron_add',
      { schedule: { kind: 'at', at }, prompt: 'later', delivery },
      { origin: CHAT },
    );
    expect(res.success).toBe(true);
    const listed = await call('cron_list', {});
    expect(listed.output).toContain(`"schedule":{"kind":"at","at":"${at}"}`);
    expect(listed.output).toContain('"delivery":"telegram.main:chat-7"');
    const [job] = await scheduler.list('main');
    expect((await scheduler.inspect()).oneOff).toEqual([`tool-at-${job!.id}`]);
    expect(await call('cron_remove', { job_id: job!.id })).toMatchObject({ success: true });
    expect((await scheduler.inspect()).oneOff).toEqual([]);
  });

  it('cron_remove and cron_run do not touch another agent`s jobs, or unknown ones', async () => {
    expect(await call('cron_remove', { job_id: 't-nope' })).toMatchObject(
      refusal(cronTexts.notFound('t-nope')),
    );
    expect(await call('cron_run', { job_id: 't-nope' })).toMatchObject(refusal(cronTexts.notFound('t-nope')));
  });

  it('says cron is unavailable where no scheduler runs', async () => {
    expect(await call('cron_list', {}, { noCron: true })).toMatchObject(refusal(cronTexts.unavailable()));
    expect(
      await call('cron_add', { schedule: '0 9 * * *', prompt: 'p' }, { origin: CHAT, noCron: true }),
    ).toMatchObject(refusal(cronTexts.unavailable()));
  });
});
