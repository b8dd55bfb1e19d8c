// Routes of the ops API: health, metrics, session abort, background tasks, approvals.
import type { FastifyInstance } from 'fastify';
import { approvalView } from '../approval/approval-view.ts';
import { isUuid } from '../core/ids.ts';
import { DEFAULT_TASK_LIMIT } from '../delegation/task-list.ts';
import { liveRunTree } from '../live/run-tree-view.ts';
import { readSessionTree } from '../live/session-tree.ts';
import { keySpaceOf } from '../queue/names.ts';
import { checkHealth } from './health.ts';
import { PROMETHEUS_CONTENT_TYPE, renderMetrics } from './metrics-text.ts';
import { badQuery, noRunningTurn, noRunTree } from './ops-api-messages.ts';
import type { OpsContext } from './ops-context.ts';

/** delegate.md §11.3 */
const TASK_STATUSES = ['running', 'completed', 'failed', 'cancelled', 'lost', 'timed_out'] as const;
const TASK_STATUS_SET: ReadonlySet<string> = new Set(TASK_STATUSES);
const MAX_TASK_LIMIT = 1000;
const DEFAULT_APPROVAL_LIMIT = 100;
const MAX_APPROVAL_LIMIT = 1000;

type Query = Record<string, string | string[] | undefined>;

/** `?limit=` as an integer in 1..max, the default when absent, or null when invalid. */
function limitOf(q: Query, fallback: number, max: number): number | null {
  const n = q.limit === undefined ? fallback : Number(q.limit);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
}

export function registerOpsRoutes(app: FastifyInstance, ctx: OpsContext): void {
  app.get('/healthz', async (req, reply) => {
    const report = await checkHealth(ctx);
    // Worker hostnames, channel keys and config errors are for the bearer (gateway.health_detail).
    return reply
      .code(report.status === 'ok' ? 200 : 503)
      .send(req.opsAuthorised ? report : { status: report.status });
  });

  // The auth hook lets only an authorised request reach this (gateway.health_detail).
  app.get('/metrics', async (_req, reply) => {
    const text = await renderMetrics(ctx);
    return reply.code(200).header('content-type', PROMETHEUS_CONTENT_TYPE).send(text);
  });

  app.post<{ Params: { id: string } }>('/api/sessions/:id/abort', async (req, reply) => {
    const id = req.params.id;
    const result = await ctx.abortSession(id);
    if (!result.aborted) return reply.code(404).send({ error: noRunningTurn(id) });
    return reply.code(202).send({ aborted: true, run_id: result.runId });
  });

  // live.md §6: the execution tree of a turn (its root run id), rebuilt from its run events.
  app.get<{ Params: { id: string } }>('/api/runs/:id/tree', async (req, reply) => {
    const id = req.params.id;
    if (!isUuid(id)) return reply.code(400).send({ error: badQuery('id', 'expected a run id') });
    const runs = await liveRunTree(ctx.redis, keySpaceOf(ctx.config.redis), ctx.logger, id);
    if (!runs) return reply.code(404).send({ error: noRunTree(id) });
    return reply.code(200).send({ root_run_id: id, runs });
  });

  // live.md §6: the trees of the session's running turn and of its recent turns.
  app.get<{ Params: { id: string } }>('/api/sessions/:id/tree', async (req, reply) => {
    const view = await readSessionTree(ctx.redis, keySpaceOf(ctx.config.redis), ctx.logger, req.params.id);
    return reply.code(200).send(view);
  });

  app.get<{ Querystring: Query }>('/api/tasks', async (req, reply) => {
    const { status } = req.query;
    if (status !== undefined && (typeof status !== 'string' || !TASK_STATUS_SET.has(status))) {
      const allowed = TASK_STATUSES.map((s) => `"${s}"`).join(', ');
      return reply.code(400).send({ error: badQuery('status', `expected one of ${allowed}`) });
    }
    const n = limitOf(req.query, DEFAULT_TASK_LIMIT, MAX_TASK_LIMIT);
    if (n === null) {
      return reply
        .code(400)
        .send({ error: badQuery('limit', `expected an integer from 1 to ${MAX_TASK_LIMIT}`) });
    }
    const tasks = await ctx.tasks.list({ ...(typeof status === 'string' ? { status } : {}), limit: n });
    return reply.code(200).send({ tasks });
  });

  // Pending approvals (oldest first, with the prompt text) and settled ones of the last 7 days (newest first).
  for (const [path, list] of [
    ['/api/approvals', (n: number) => ctx.approvals.listPending(n)],
    ['/api/approvals/audit', (n: number) => ctx.approvals.listAudit(n)],
  ] as const) {
    app.get<{ Querystring: Query }>(path, async (req, reply) => {
      const n = limitOf(req.query, DEFAULT_APPROVAL_LIMIT, MAX_APPROVAL_LIMIT);
      if (n === null) {
        return reply
          .code(400)
          .send({ error: badQuery('limit', `expected an integer from 1 to ${MAX_APPROVAL_LIMIT}`) });
      }
      return reply.code(200).send({ approvals: (await list(n)).map(approvalView) });
    });
  }
}
