// Who is asked, and how (approvals.md §5-§6, §13): the originating chat or the profile's route, a pending record
// in Redis, a card posted by the gateway holding the channel, and a wait bounded by the expiry and the run.
import type { DialectOf } from '../channel-host/dialect.ts';
import type { Recipient } from '../channel-host/types.ts';
import { channelOf } from '../config/lookup.ts';
import type { ApprovalRoute, BatonConfig } from '../config/types.ts';
import { resolveApproverChannel } from '../config/views.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalStore, Requester } from './approval-store.ts';
import type { ApprovalWaiter, WaitOutcome } from './approval-waiter.ts';
import { summarizeArgs } from './args-summary.ts';
import type { ApprovalDelivery } from './card-delivery.ts';
import { logApprovalDecision } from './decision-log.ts';
import type { ApprovalAsker, AskAnswer, PostedPrompt } from './gate.ts';
import type { ApprovalReason, RuntimeDenial } from './types.ts';

export interface AskerDeps {
  /** The config in effect now, read at each ask (a reload changes channel timeouts and approver channels). */
  config: () => BatonConfig;
  store: Pick<ApprovalStore, 'createPendingApproval' | 'markUndeliverable'>;
  waiter: Pick<ApprovalWaiter, 'waitForDecision'>;
  delivery: ApprovalDelivery;
  /** Each channel's recipient form and group ids (§12.1). */
  dialectOf: DialectOf;
  /** Whether a gateway holds the channel now (its presence key exists: §10). */
  isLive(channelKey: string): Promise<boolean>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** How often a pending wait checks that a gateway still holds the channel (default 10 s, the presence refresh). */
  presenceCheckMs?: number;
}

/** The run a gate asks for. */
export interface AskContext {
  /** Whose call it is (a delegated child's target). */
  agent: string;
  /** A delegated child's immediate caller. */
  caller?: string | null;
  runId: string;
  rootRunId: string;
  /** The originating chat (channel root turns and their subagents); `group` when it is not a direct message. */
  origin?: (Recipient & { group: boolean }) | undefined;
  /** The route of the asking profile, if any. */
  route?: ApprovalRoute | undefined;
  /** An independent delegated child: only its route is asked, never an originating chat (§7). */
  routeOnly?: boolean;
  /** Epoch ms when the run's time limit ends; the wait never outlasts it. */
  deadline?: number | null;
  /** Who started the root run (a channel user); with a route, they may not answer any of this run's prompts. */
  requester?: Requester | undefined;
}

const PRESENCE_CHECK_MS = 10_000;

/** Channels not in the config (the local test channel) wait this long in their own chat. */
const DEFAULT_CHANNEL_TIMEOUT_SECS = 120;

type WaitAnswer = 'approve' | 'always' | 'deny' | RuntimeDenial;

const ANSWER_OF: Record<WaitOutcome['kind'], WaitAnswer> = {
  approved: 'approve',
  always: 'always',
  denied: 'deny',
  expired: 'timed_out',
  undeliverable: 'unreachable',
  cancelled: 'cancelled',
  missing: 'unreachable',
};

/** An asker for one run; null when the run has no approver path at all (a non-interactive gate). */
export function createChannelAsker(deps: AskerDeps, ctx: AskContext): ApprovalAsker | null {
  const { logger } = deps;
  const route = ctx.route?.approver_channel.trim() ? ctx.route : undefined;
  const origin = ctx.routeOnly ? undefined : ctx.origin;
  if (!route && !origin) return null;

  const remainingMs = () => (ctx.deadline ? ctx.deadline - Date.now() : Number.POSITIVE_INFINITY);
  const channelTimeoutMs = (key: string) =>
    (channelOf(deps.config(), key)?.approval_timeout_secs ?? DEFAULT_CHANNEL_TIMEOUT_SECS) * 1000;

  /** A runtime outcome with no record behind it still gets its §14 line. */
  const logUnrecorded = (
    tool: string,
    args: unknown,
    source: RuntimeDenial & ('unavailable' | 'unreachable'),
  ) =>
    logApprovalDecision(logger, {
      approval_id: null,
      tool,
      args_summary: summarizeArgs(args),
      agent: ctx.agent,
      caller: ctx.caller ?? null,
      run_id: ctx.runId,
      decision: 'deny',
      decided_by: null,
      source,
    });

  const askAt = async (
    tool: string,
    args: unknown,
    signal: AbortSignal,
    channel: string,
    to: { chat: string; thread?: string | undefined },
    waitMs: number,
    prompt: { route: boolean; group: boolean; reasons: readonly ApprovalReason[] },
    posted: ((p: PostedPrompt) => void) | undefined,
  ): Promise<WaitAnswer> => {
    if (signal.aborted) return 'cancelled';
    const record = await deps.store.createPendingApproval({
      tool,
      args,
      agent: ctx.agent,
      caller: ctx.caller ?? null,
      runId: ctx.runId,
      rootRunId: ctx.rootRunId,
      channel,
      destination: { chat: to.chat, thread: to.thread ?? null },
      reasons: prompt.reasons,
      routePrompt: prompt.route,
      group: prompt.group,
      // A route means someone other than the requester decides: the fallback prompt in their chat included.
      requester: route ? (ctx.requester ?? null) : null,
      waitMs: Math.max(0, Math.min(waitMs, remainingMs())),
    });
    const recipient: Recipient = { channel, chat: to.chat, ...(to.thread ? { thread: to.thread } : {}) };
    await deps.delivery.post(channel, record.approval_id, recipient);
    posted?.({ approvalId: record.approval_id, channel, chat: to.chat });
    // No gateway holds the channel any more (its presence expired): nobody can answer, "approver returned no
    // decision" (§6 step 5). The record becomes undeliverable, which ends the wait as unreachable.
    const watch = setInterval(() => {
      deps
        .isLive(channel)
        .then((live) => (live ? undefined : deps.store.markUndeliverable(record.approval_id)))
        .catch((err: unknown) =>
          logger.warn(
            { approval_id: record.approval_id, err: errorMessage(err) },
            'approval presence check failed',
          ),
        );
    }, deps.presenceCheckMs ?? PRESENCE_CHECK_MS);
    const outcome = await deps.waiter
      .waitForDecision(record.approval_id, { signal, expiresAt: record.expires_at })
      .finally(() => clearInterval(watch));
    // Expired or abandoned: the card shows it and loses its buttons (the deciding gateway asks so for a decision).
    if (outcome.kind === 'expired' || outcome.kind === 'cancelled') {
      deps.delivery.edit(channel, record.approval_id, recipient).catch((err: unknown) => {
        logger.warn(
          { approval_id: record.approval_id, err: errorMessage(err) },
          'approval card edit request failed',
        );
      });
    }
    return ANSWER_OF[outcome.kind];
  };

  const askRoute = async (
    tool: string,
    args: unknown,
    signal: AbortSignal,
    r: ApprovalRoute,
    posted: ((p: PostedPrompt) => void) | undefined,
    reasons: readonly ApprovalReason[],
  ): Promise<WaitAnswer> => {
    const written = r.approver_channel.trim();
    const key = written.includes('.') ? written : resolveApproverChannel(deps.config(), written);
    if (!key || !(await deps.isLive(key))) {
      logUnrecorded(tool, args, 'unavailable');
      return 'unavailable';
    }
    const recipient = r.approver_recipient.trim() || (ctx.routeOnly ? '' : (ctx.origin?.chat ?? ''));
    if (!recipient) {
      logUnrecorded(tool, args, 'unreachable');
      return 'unreachable';
    }
    const dialect = deps.dialectOf(key);
    const to = dialect.parseRecipient(recipient);
    const waitMs = Math.min(Math.max(r.timeout_secs, 1) * 1000, channelTimeoutMs(key));
    return askAt(
      tool,
      args,
      signal,
      key,
      to,
      waitMs,
      { route: true, group: dialect.isGroupChat(to.chat), reasons },
      posted,
    );
  };

  return {
    forRun: (runId) => createChannelAsker(deps, { ...ctx, runId }) as ApprovalAsker,
    async ask(tool, args, signal, posted, reasons = []): Promise<AskAnswer> {
      const askOrigin = (o: NonNullable<typeof origin>) =>
        askAt(
          tool,
          args,
          signal,
          o.channel,
          o,
          channelTimeoutMs(o.channel),
          { route: false, group: o.group, reasons },
          posted,
        );
      if (!route) return askOrigin(origin!);
      const answer = await askRoute(tool, args, signal, route, posted, reasons);
      if (answer === 'approve' || answer === 'always' || answer === 'deny' || answer === 'cancelled')
        return answer;
      const fields = { tool, agent: ctx.agent, run_id: ctx.runId, reason: answer };
      if (route.on_no_approver === 'inherit-originator' && origin && !signal.aborted) {
        logger.warn(fields, 'approval route falling back to originating channel');
        return askOrigin(origin);
      }
      logger.warn(fields, 'approval route fail-closed: denying gated tool');
      return answer;
    },
  };
}
