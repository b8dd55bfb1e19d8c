// The operator pages: /ui/tasks, /ui/approvals, /ui/cost, /ui/config, /ui/senders, their live fragments (pushed by each page's
// stream when its records change) and their writes.
// Every route needs the signed-in web user (req.webUser, set by the web auth hook); writes also the CSRF token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardTopic } from '../../core/dashboard-changes.ts';
import { isUuid } from '../../core/ids.ts';
import { cancelRunningTask } from '../../tools/delegate/cancel-task.ts';
import type { Html } from '../html.ts';
import { html } from '../html.ts';
import { createPageStreams, type PageSource } from '../live/page-stream.ts';
import { onDashboardChange, onRunEventFlush } from '../live/page-wakes.ts';
import { PAGE_HEADERS, page } from '../page.ts';
import { mayActFor, maySeeTask } from '../users/web-authz.ts';
import { approvalsFragment } from './approvals-page.ts';
import { configBody, DELEGATION_MODES } from './config-page.ts';
import { costFragment } from './cost-page.ts';
import {
  admitted,
  BAD_MODE,
  BAD_SENDER,
  CONFIG_PATH_UNKNOWN,
  OPERATORS_ONLY,
  policySaved,
  SENDER_NOT_REFUSED,
  TASK_NOT_FOUND,
  TITLES,
  UNKNOWN_PROFILE,
} from './ops-page-messages.ts';
import type { OpsPagesDeps } from './ops-pages-deps.ts';
import { admissionOf, SENDERS_SHOWN, sendersFragment } from './senders-page.ts';
import { TASKS_SHOWN, type TaskRow, tasksFragment } from './tasks-page.ts';
import { requireWebUser, type WebUser } from './web-user.ts';

/** Served by src/web/assets-route.ts. */
export const OPS_SCRIPT = 'ops.js';
const APPROVALS_SHOWN = 100;
/** The cost page wakes at every run-event flush of the deployment: once a second is live enough. */
const COST_GAP_MS = 1000;

type Section = keyof typeof TITLES;
type LiveSection = Exclude<Section, 'config'>;
interface LiveView {
  view: (user: WebUser) => Promise<Html>;
  watch: PageSource['watch'];
  gap?: number;
  operatorOnly?: boolean;
}
const HREF: Record<Section, string> = {
  tasks: '/ui/tasks',
  approvals: '/ui/approvals',
  cost: '/ui/cost',
  config: '/ui/config',
  senders: '/ui/senders',
};

const sendHtml = (reply: FastifyReply, body: string) =>
  reply.code(200).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);

export function registerOpsPages(app: FastifyInstance, deps: OpsPagesDeps): void {
  const streams = createPageStreams(app, deps);

  const shell = (section: Section, user: WebUser, body: Html, live: boolean) =>
    page({
      title: TITLES[section],
      user,
      current: HREF[section],
      scripts: [OPS_SCRIPT],
      body: html`<h1>${TITLES[section]}</h1>
<p id="flash" role="status"></p>
${live ? html`<div data-stream="${HREF[section]}/stream">${body}</div>` : body}`,
    });

  // Each read shows only what the user may see (web-authz.ts): their agents' tasks and approvals.
  const tasksNow = async (user: WebUser): Promise<TaskRow[]> => {
    const config = deps.config();
    const all = await deps.taskList.list({ limit: TASKS_SHOWN });
    const listed = all.filter((t) => maySeeTask(config, user, t));
    const records = await Promise.all(listed.map((t) => deps.tasks.get(t.task_id)));
    return listed.map((t, i) => ({ ...t, output: records[i]?.output ?? null }));
  };

  // Read-only: approvals are decided only through channel prompts (approvals.md §5), never here.
  const approvalsNow = async (user: WebUser) => {
    const [pending, audit] = await Promise.all([
      deps.approvals.listPending(APPROVALS_SHOWN),
      deps.approvals.listAudit(APPROVALS_SHOWN),
    ]);
    const config = deps.config();
    const mine = (r: { agent: string }) => mayActFor(config, user, r.agent);
    return approvalsFragment(pending.filter(mine), audit.filter(mine));
  };

  const costNow = async () => {
    const config = deps.config();
    const now = new Date();
    return costFragment(config, await deps.ledger.read(Object.keys(config.agents), now), now);
  };

  // Pages, their fragments, and what pushes a fresh fragment: the stream is what ops.js follows and swaps in.
  const watchTopic = (topic: DashboardTopic) => (wake: () => void) =>
    onDashboardChange(deps.subscriber, deps.prefix, (c) => c.topic === topic, wake);
  const views: Record<LiveSection, LiveView> = {
    tasks: { view: async (user) => tasksFragment(await tasksNow(user)), watch: watchTopic('tasks') },
    approvals: { view: approvalsNow, watch: watchTopic('approvals') },
    // Who was refused, and the Admit buttons: a config edit, so for operators.
    senders: {
      operatorOnly: true,
      view: async () =>
        sendersFragment(
          deps.config(),
          await deps.refusedSenders.list(SENDERS_SHOWN),
          deps.configPath !== undefined,
        ),
      watch: watchTopic('senders'),
    },
    // Deployment-wide spend and limits: for operators.
    cost: {
      operatorOnly: true,
      view: costNow,
      watch: (wake) => onRunEventFlush(deps.subscriber, deps.prefix, wake),
      gap: COST_GAP_MS,
    },
  };
  /** The user when they may open this section, else null after answering 401/403. */
  const allowed = (req: FastifyRequest, reply: FastifyReply, operatorOnly: boolean): WebUser | null => {
    const user = requireWebUser(req, reply);
    if (user && operatorOnly && !user.operator) {
      void reply.code(403).send({ error: OPERATORS_ONLY });
      return null;
    }
    return user;
  };

  for (const [section, { view, watch, gap, operatorOnly = false }] of Object.entries(views) as [
    LiveSection,
    LiveView,
  ][]) {
    app.get(HREF[section], async (req, reply) => {
      const user = allowed(req, reply, operatorOnly);
      if (user) return sendHtml(reply, shell(section, user, await view(user), true));
    });
    app.get(`${HREF[section]}/fragment`, async (req, reply) => {
      const user = allowed(req, reply, operatorOnly);
      if (user) return sendHtml(reply, (await view(user)).value);
    });
    app.get(`${HREF[section]}/stream`, async (req, reply) => {
      const user = allowed(req, reply, operatorOnly);
      if (!user) return;
      const render = async () => ({ html: (await view(user)).value });
      return streams.serve(req, reply, { render, watch, ...(gap ? { minGapMs: gap } : {}) });
    });
  }

  app.get(HREF.config, async (req, reply) => {
    const user = allowed(req, reply, true);
    if (user)
      return sendHtml(reply, shell('config', user, configBody(deps.config(), deps.configPath), false));
  });

  app.post<{ Params: { id: string } }>('/ui/tasks/:id/cancel', async (req, reply) => {
    const user = requireWebUser(req, reply);
    if (!user) return;
    const id = req.params.id;
    const rec = isUuid(id) ? await deps.tasks.get(id) : null;
    // Someone else's task is answered like a missing one: its id is not confirmed either.
    const listed = rec?.kind === 'delegate' ? { agent: rec.agent, chain: rec.chain ?? [] } : null;
    if (!rec || !listed || !maySeeTask(deps.config(), user, listed))
      return reply.code(404).send({ error: TASK_NOT_FOUND(id) });
    const res = await cancelRunningTask(deps.tasks, deps.delegation, rec);
    if (res.cancelled)
      deps.logger.info({ task_id: id, via: 'dashboard', by: user.peerId }, 'background task cancelled');
    return res.cancelled
      ? reply.code(200).send({ text: res.text })
      : reply.code(409).send({ error: res.text });
  });

  app.post<{ Params: { profile: string }; Body: { mode?: unknown } | undefined }>(
    '/ui/config/risk-profiles/:profile/delegation-policy',
    async (req, reply) => {
      const user = allowed(req, reply, true);
      if (!user) return;
      const { profile } = req.params;
      const mode = req.body?.mode;
      if (typeof mode !== 'string' || !(DELEGATION_MODES as readonly string[]).includes(mode))
        return reply.code(400).send({ error: BAD_MODE(DELEGATION_MODES) });
      if (!Object.hasOwn(deps.config().risk_profiles, profile))
        return reply.code(404).send({ error: UNKNOWN_PROFILE(profile) });
      if (deps.configPath === undefined) return reply.code(409).send({ error: CONFIG_PATH_UNKNOWN });
      const res = await deps.applyDelegationPolicyMode(deps.configPath, profile, mode);
      if (!res.ok)
        return reply.code(422).send({ error: res.diagnostics.join('\n'), diagnostics: res.diagnostics });
      deps.logger.info({ profile, mode, by: user.peerId }, 'delegation_policy changed from the dashboard');
      return reply.code(200).send({ text: [policySaved(profile, mode), ...(res.notes ?? [])].join('\n') });
    },
  );

  // Admit a refused sender: only one the fleet refused (never an arbitrary id), into the group the page showed,
  // recomputed from the config in effect now; the edit keeps the file's comments and reloads the deployment.
  app.post<{ Body: { channel?: unknown; user_id?: unknown } | undefined }>(
    '/ui/senders/admit',
    async (req, reply) => {
      const user = allowed(req, reply, true);
      if (!user) return;
      const { channel, user_id } = req.body ?? {};
      if (typeof channel !== 'string' || typeof user_id !== 'string')
        return reply.code(400).send({ error: BAD_SENDER });
      const sender = await deps.refusedSenders.get(channel, user_id);
      if (!sender) return reply.code(404).send({ error: SENDER_NOT_REFUSED });
      if (deps.configPath === undefined) return reply.code(409).send({ error: CONFIG_PATH_UNKNOWN });
      const admission = admissionOf(deps.config(), sender);
      const res = await deps.admitPeer(deps.configPath, admission);
      if (!res.ok)
        return reply.code(422).send({ error: res.diagnostics.join('\n'), diagnostics: res.diagnostics });
      await deps.refusedSenders.forget(channel, user_id);
      deps.logger.info(
        { channel, user_id, group: admission.group, by: user.peerId },
        'refused sender admitted from the dashboard',
      );
      return reply
        .code(200)
        .send({ text: [admitted(user_id, admission.group), ...(res.notes ?? [])].join('\n') });
    },
  );

  app.addHook('onClose', async () => {
    await deps.close?.();
  });
}
