// The approvals e2e lane: `baton gateway` and `baton worker` child processes on one Redis, Slack in HTTP mode
// (signed POSTs to each gateway's /slack/<alias>/events), approvals of `main`'s shell calls routed to the ops room.
// Each case has a tag: the user asks `run <tag>`, the model calls `mktemp <tag>.XXXXXX` in the workspace (one new
// file per execution, so files counted = times the tool ran) and answers `done <tag>` once told the result.
// mktemp writes, so the supervised shell policy asks for it (one card per call; no always_ask, which would ask a
// second time from the command policy after the gate's own prompt).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { type ApprovalStore, createApprovalStore } from '../../../src/approval/approval-store.ts';
import type { ApprovalAction } from '../../../src/channel-host/approval-card.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import {
  type FakeModelServer,
  type RecordedRequest,
  startFakeModelServer,
} from '../../fakes/model-server.ts';
import { postSlackEvent, postSlackInteraction } from '../../fakes/slack-http.ts';
import { blockActions, eventCallback, messageEvent } from '../../fakes/slack-payloads.ts';
import { type FakeSlackServer, type PostedMessage, startFakeSlack } from '../../fakes/slack-server.ts';
import { type BatonProcess, startBaton } from '../../helpers/baton-process.ts';
import { freePort } from '../../helpers/free-port.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';

export const SECRET = 'ops-lane-signing-secret';
export const OPS_ROOM = 'C0OPS';
export const DEV_ROOM = 'C0DEV';
export const OPS_LEAD = 'U0OPSLEAD';
/** A second approver in the ops room (alice, who asks, may not answer her own run's approvals). */
export const OPS_PEER = 'U0OPSPEER';
export const MALLORY = 'U0MALLORY';
export const LATE = '⚠️ This approval request has expired or was already decided.';
export const UNAUTHORISED = '⚠️ You are not authorized to answer this approval request.';

/** A gateway: its process, its Slack Request URL per alias, and the bot token that tells its Web API calls apart. */
export interface Gateway {
  proc: BatonProcess;
  eventsUrl(alias?: string): string;
  botToken: string;
}

/** An approval card in the ops room, read back from the fake's posted message. */
export interface Card {
  message: PostedMessage;
  approvalId: string;
  token: string;
  /** The bot token of the gateway that posted it. */
  postedWith: string;
  actionId(action: ApprovalAction): string;
}

export interface PressOptions {
  user?: string;
  channel?: string;
  actionId?: string;
  value?: string;
  alias?: string;
}

export interface OpsLane {
  model: FakeModelServer;
  slack: FakeSlackServer;
  redis: Redis;
  prefix: string;
  store: ApprovalStore;
  gateways: Gateway[];
  worker: BatonProcess;
  /** Alice asks `run <tag>` in the dev room, through gateway `g`'s Request URL. */
  ask(tag: string, g?: number): Promise<void>;
  card(tag: string): Promise<Card>;
  /** A signed press of `action` on `card`, POSTed to gateway `g` (options forge parts of it). */
  press(g: number, card: Card, action: ApprovalAction, o?: PressOptions): Promise<number>;
  /** Ephemeral texts sent to `user` after the `since`-th recorded call, once `count` have been sent. */
  ephemerals(user: string, since: number, count: number): Promise<string[]>;
  /** What the model was told as the tag's shell result (waits for the request that carries it). */
  toldModel(tag: string): Promise<string>;
  /** Model requests that carry a tool result for the tag. */
  toolResults(tag: string): string[];
  /** Files the tag's command created: how many times the tool ran. */
  ran(tag: string): number;
  startWorker(): Promise<BatonProcess>;
  /** What the processes printed, what the model got and what Slack shows: for a failing case's message. */
  dump(): string;
  close(): Promise<void>;
}

const userText = (r: RecordedRequest) =>
  (r.body.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
const tagOf = (r: RecordedRequest) => /run (\w+)/.exec(userText(r))?.[1];

function configToml(o: {
  prefix: string;
  port: number;
  dir: string;
  modelUrl: string;
  slackUrl: string;
  botToken: string;
}) {
  const slack = (alias: string) => `
[channels.slack.${alias}]
enabled = true
bot_token = "${o.botToken}"
signing_secret = "${SECRET}"
api_base_url = "${o.slackUrl}"
`;
  return `schema_version = 3

[redis]
url = "${REDIS_URL}"
prefix = "${o.prefix}"

[gateway]
host = "127.0.0.1"
port = ${o.port}
data_dir = "${join(o.dir, 'data')}"

[worker]
shutdown_grace_secs = 2

[reliability]
provider_retries = 0

[providers.models.custom.fake]
uri = "${o.modelUrl}"
model = "fake-model"

[risk_profiles.ops]
level = "supervised"
allowed_tools = ["shell"]
allowed_commands = ["mktemp"]

[risk_profiles.ops.approval_route]
approver_channel = "slack.ops"
approver_recipient = "${OPS_ROOM}"
on_no_approver = "deny"
timeout_secs = 120

[agents.main]
model_provider = "custom.fake"
risk_profile = "ops"
channels = ["slack.ops", "slack.other"]
${slack('ops')}${slack('other')}
[peer_groups.ops]
channel = "slack"
agents = ["main"]
external_peers = ["U0ALICE", "${OPS_LEAD}", "${OPS_PEER}"]
`;
}

/** Starts the fakes, `gateways` gateways and one worker. */
export async function createOpsLane(name: string, gateways: number): Promise<OpsLane> {
  const model = await startFakeModelServer();
  model.respond((req) => {
    const tag = tagOf(req);
    if (!tag) return { text: 'no tag' };
    if (req.body.messages?.at(-1)?.role === 'tool') return { text: `done ${tag}` };
    return { toolCalls: [{ name: 'shell', arguments: { command: `mktemp ${tag}.XXXXXX` } }] };
  });
  const slack = await startFakeSlack();
  const prefix = uniquePrefix(name);
  const redis = testRedis();
  const store = createApprovalStore({ redis, prefix, logger: createSilentLogger() });
  const dir = mkdtempSync(join(tmpdir(), `baton-e2e-${name}-`));
  const workspace = join(dir, 'data', 'workspaces', 'main');
  const procs: BatonProcess[] = [];

  const write = async (file: string, botToken: string) => {
    const port = await freePort();
    const path = join(dir, `${file}.toml`);
    const modelUrl = model.openaiBaseUrl;
    writeFileSync(path, configToml({ prefix, port, dir, modelUrl, slackUrl: slack.apiUrl, botToken }));
    return { path, port };
  };
  const start = async (role: 'gateway' | 'worker', path: string) => {
    const p = startBaton([role, '--config', path]);
    procs.push(p);
    await p.waitFor(role === 'gateway' ? /baton gateway running/ : /baton worker running/, 30_000);
    return p;
  };

  const gws: Gateway[] = [];
  const workerConfig = await write('worker', 'xoxb-worker');
  const started = Array.from({ length: gateways }, async (_, i) => {
    const botToken = `xoxb-gateway-${i}`;
    const { path, port } = await write(`gateway-${i}`, botToken);
    const proc = await start('gateway', path);
    gws[i] = {
      proc,
      botToken,
      eventsUrl: (alias = 'ops') => `http://127.0.0.1:${port}/slack/${alias}/events`,
    };
  });
  const [worker] = await Promise.all([start('worker', workerConfig.path), ...started]);

  const cards = () => slack.messages.filter((m) => m.channel === OPS_ROOM && m.blocks.length > 1);
  const results = (tag: string) =>
    model.requests.filter((r) => tagOf(r) === tag).flatMap((r) => toolResultsOf(r).map((t) => t.content));

  return {
    model,
    slack,
    redis,
    prefix,
    store,
    gateways: gws,
    worker: worker as BatonProcess,
    async ask(tag, g = 0) {
      const payload = eventCallback(messageEvent({ channel: DEV_ROOM, user: 'U0ALICE', text: `run ${tag}` }));
      const res = await postSlackEvent((gws[g] as Gateway).eventsUrl(), SECRET, payload);
      if (res.status !== 200) throw new Error(`the message was refused: ${res.status} ${res.text}`);
    },
    async card(tag) {
      const message = await slack.waitFor(
        () => cards().find((m) => m.versions[0]?.text.includes(`mktemp ${tag}.`)),
        `the card for ${tag} in the ops room`,
        30_000,
      );
      type Element = { action_id?: string; value?: string };
      const buttons = ((message.versions[0]?.blocks ?? []) as Array<{ elements?: Element[] }>).flatMap(
        (b) => b.elements ?? [],
      );
      const approve = buttons.find((b) => b.action_id?.endsWith('_approve'));
      const token = /^approval_([a-z0-9]{6})_approve$/.exec(approve?.action_id ?? '')?.[1];
      if (!approve?.value || !token)
        throw new Error(`no Approve button on the card: ${JSON.stringify(buttons)}`);
      const post = slack
        .callsOf('chat.postMessage')
        .find((c) => c.params.channel === OPS_ROOM && String(c.params.text).includes(`mktemp ${tag}.`));
      return {
        message,
        approvalId: approve.value,
        token,
        postedWith: String(post?.token),
        actionId: (action) => `approval_${token}_${action}`,
      };
    },
    async press(g, card, action, o = {}) {
      const payload = blockActions(
        {
          channel: o.channel ?? card.message.channel,
          messageTs: card.message.ts,
          actionId: o.actionId ?? card.actionId(action),
          value: o.value ?? card.approvalId,
          user: o.user ?? OPS_LEAD,
          username: o.user === undefined ? 'ops-lead' : o.user.toLowerCase(),
          blocks: card.message.versions[0]?.blocks ?? [],
          text: card.message.versions[0]?.text ?? '',
        },
        slack.apiUrl,
      );
      return (await postSlackInteraction((gws[g] as Gateway).eventsUrl(o.alias), SECRET, payload)).status;
    },
    async ephemerals(user, since, count) {
      const mine = () =>
        slack.calls
          .slice(since)
          .filter((c) => c.method === 'chat.postEphemeral' && c.params.user === user)
          .map((c) => String(c.params.text));
      return slack.waitFor(() => mine().length >= count && mine(), `${count} ephemerals to ${user}`, 30_000);
    },
    async toldModel(tag) {
      await waitFor(() => results(tag).length > 0, 30_000, `the shell result of ${tag} at the model`);
      return results(tag)[0] as string;
    },
    toolResults: results,
    ran: (tag) => {
      try {
        return readdirSync(workspace).filter((f) => f.startsWith(`${tag}.`)).length;
      } catch {
        return 0;
      }
    },
    startWorker: () => start('worker', workerConfig.path),
    dump: () =>
      [
        ...procs.map((p) => p.output().slice(-3000)),
        ...model.requests.map((r) => `model: ${JSON.stringify(r.body.messages?.slice(1)).slice(0, 600)}`),
        ...slack.calls.map((c) => `slack ${c.method} ${c.token}: ${JSON.stringify(c.params).slice(0, 300)}`),
      ].join('\n'),
    async close() {
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exited));
      await Promise.allSettled([slack.close(), model.close()]);
      await deletePrefix(redis, prefix);
      await redis.quit();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
