// The cron_add, cron_list, cron_remove and cron_run tools: an agent's own schedules, through CronControl.
import { z } from 'zod';
import { cronTexts } from '../../cron/cron-messages.ts';
import type { CronControl, CronListEntry } from '../../cron/types.ts';
import type { RunContext } from '../../run-contract/run-context.ts';
import { fail, ok, type Tool, type ToolContext, type ToolResult } from '../../run-contract/tool.ts';
import { chargeAction, guardedExecute, readOnlyBlock } from '../builtin/tool-support.ts';
import {
  CRON_ADD_PARAMETERS,
  cronAddInput,
  deliveryOf,
  describeRecipient,
  scheduleOf,
} from './cron-input.ts';

const jobIdInput = z.object({ job_id: z.string().min(1) });
const JOB_ID_PARAMETERS = {
  type: 'object',
  properties: { job_id: { type: 'string', description: 'The job id shown by cron_list' } },
  required: ['job_id'],
  additionalProperties: false,
};

/** The control of this process, or the refusal a tool gives where no scheduler runs. */
function controlOf(run: RunContext): CronControl | ToolResult {
  return run.services.cron ?? fail(cronTexts.unavailable());
}

/** Shared guard of the mutating tools: a scheduler, then read-only refusal, then one action from the bucket. */
async function admitMutation(run: RunContext, tool: string): Promise<CronControl | ToolResult> {
  const control = controlOf(run);
  if ('success' in control) return control;
  const refused = readOnlyBlock(run, tool);
  if (refused) return refused;
  return (await chargeAction(run)) ?? control;
}

function createCronAddTool(): Tool<unknown> {
  const name = 'cron_add';
  return {
    name,
    description:
      'Schedule a recurring or one-off job: at each run this agent gets the prompt and its answer is posted to this chat (or to `delivery`).',
    parameters: CRON_ADD_PARAMETERS,
    input: z.unknown(),
    execute: guardedExecute(name, cronAddInput, async (input, { run }: ToolContext) => {
      const delivery = deliveryOf(run, input);
      if (typeof delivery === 'string') return fail(delivery);
      const control = await admitMutation(run, name);
      if ('success' in control) return control;
      const res = await control.add({
        agent: run.agentAlias,
        name: input.name?.trim() || 'cron-job',
        schedule: scheduleOf(input),
        prompt: input.prompt.trim(),
        delivery,
      });
      if (!res.ok) return fail(res.error);
      return ok(
        cronTexts.added(
          res.job.id,
          res.nextRun ? `next run ${res.nextRun}` : 'scheduled',
          describeRecipient(delivery),
        ),
      );
    }),
  };
}

const listLine = (e: CronListEntry) =>
  JSON.stringify({
    job_id: e.id,
    source: e.source,
    name: e.name,
    schedule: e.schedule,
    prompt: e.prompt,
    delivery: e.delivery ? describeRecipient(e.delivery) : null,
    next_run: e.next_run,
  });

function createCronListTool(): Tool<unknown> {
  const name = 'cron_list';
  return {
    name,
    description: "List this agent's cron jobs (from the config and from cron_add) with their next run.",
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    input: z.unknown(),
    execute: guardedExecute(name, z.object({}).passthrough(), async (_input, { run }: ToolContext) => {
      const control = controlOf(run);
      if ('success' in control) return control;
      const entries = await control.list(run.agentAlias);
      return ok(entries.length ? entries.map(listLine).join('\n') : cronTexts.none());
    }),
  };
}

function createCronRemoveTool(): Tool<unknown> {
  const name = 'cron_remove';
  return {
    name,
    description: 'Remove a cron job this agent created with cron_add.',
    parameters: JOB_ID_PARAMETERS,
    input: z.unknown(),
    execute: guardedExecute(name, jobIdInput, async ({ job_id }, { run }: ToolContext) => {
      const control = await admitMutation(run, name);
      if ('success' in control) return control;
      const res = await control.remove(run.agentAlias, job_id);
      if (res === 'declared_in_config') return fail(cronTexts.declaredInConfig(job_id));
      return res === 'removed' ? ok(cronTexts.removed(job_id)) : fail(cronTexts.notFound(job_id));
    }),
  };
}

function createCronRunTool(): Tool<unknown> {
  const name = 'cron_run';
  return {
    name,
    description: "Run one of this agent's cron jobs now, once; its result is delivered like a scheduled run.",
    parameters: JOB_ID_PARAMETERS,
    input: z.unknown(),
    execute: guardedExecute(name, jobIdInput, async ({ job_id }, { run }: ToolContext) => {
      const control = await admitMutation(run, name);
      if ('success' in control) return control;
      const res = await control.runNow(run.agentAlias, job_id);
      return res.ok ? ok(cronTexts.queued(job_id)) : fail(cronTexts.notFound(job_id));
    }),
  };
}

export function createCronTools(): Tool<unknown>[] {
  return [createCronAddTool(), createCronListTool(), createCronRemoveTool(), createCronRunTool()];
}
