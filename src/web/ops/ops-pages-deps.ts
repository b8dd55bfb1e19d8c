// What the operator pages are built from, and the default wiring from one gateway's config and Redis client.
import type { Redis } from 'ioredis';
import { type ApprovalStore, createApprovalStore } from '../../approval/approval-store.ts';
import type { Admission } from '../../channel-host/admission.ts';
import type { BatonConfig } from '../../config/types.ts';
import type { Logger } from '../../core/logger.ts';
import { createCostLedger } from '../../cost/ledger.ts';
import { createDelegateTasks, type DelegateTasks } from '../../delegation/delegate-tasks.ts';
import type { DelegationServices } from '../../delegation/delegation-services.ts';
import { createTaskList, type TaskList } from '../../delegation/task-list.ts';
import { createRefusedSenders, type RefusedSenders } from '../../fleet/refused-senders.ts';
import type { LiveSubscriber } from '../../live/live-subscriber.ts';
import type { LiveFeeds } from '../../ops-api/ops-context.ts';
import { createDelegationServices, type DelegationHandle } from '../../queue/delegate-queue.ts';
import type { CostLedger } from '../../run-contract/cost-contract.ts';
import { CONFIG_EDIT_UNAVAILABLE } from './ops-page-messages.ts';

/** What a delegation_policy save reports: ok, or the loader's diagnostics (shown verbatim). */
export type PolicyEditResult = { ok: true; notes?: string[] } | { ok: false; diagnostics: string[] };

/** src/fleet/config-file-edit.ts `applyDelegationPolicyMode` (format-preserving edit, validation, reload). */
export type ApplyDelegationPolicyMode = (
  configPath: string,
  profile: string,
  mode: string,
) => Promise<PolicyEditResult>;

/** src/fleet/config-file-edit.ts `admitExternalPeer`: the refused sender's id into a peer group, then reload. */
export type AdmitPeer = (configPath: string, admission: Admission) => Promise<PolicyEditResult>;

export interface OpsPagesDeps {
  /** The config in effect now (a reload replaces it). */
  config: () => BatonConfig;
  /** The file the config was loaded from; undefined: the config page is read-only. */
  configPath: string | undefined;
  logger: Pick<Logger, 'info' | 'warn'>;
  taskList: TaskList;
  tasks: Pick<DelegateTasks, 'get' | 'settle'>;
  /** The delegate queue: job state, removal of a queued job, the cross-process cancel. */
  delegation: Pick<DelegationServices, 'jobState' | 'publishCancel' | 'removeWaiting'>;
  /** Read-only: the dashboard lists approvals, it never decides them (approvals.md §5). */
  approvals: Pick<ApprovalStore, 'listPending' | 'listAudit'>;
  ledger: Pick<CostLedger, 'read'>;
  applyDelegationPolicyMode: ApplyDelegationPolicyMode;
  /** Recently refused senders (the Refused senders page) and the Admit edit. */
  refusedSenders: Pick<RefusedSenders, 'list' | 'get' | 'forget'>;
  admitPeer: AdmitPeer;
  /** Where the pages' pushes come from (the gateway's one pub/sub connection). */
  subscriber: LiveSubscriber;
  prefix: string;
  /** The server's secret redactor: pushed frames leave without its onSend hook. */
  redact: (text: string) => string;
  close?: () => Promise<void>;
}

/** What the process that starts the gateway adds for these pages (OpsServerDeps.opsPages). */
export interface OpsPagesWiring {
  /** The file the config came from (the role knows it: `baton -c`); absent: the config page is read-only. */
  configPath?: string;
  /** The reloadable config; absent: the config the server was started with. */
  currentConfig?: () => BatonConfig;
  applyDelegationPolicyMode?: ApplyDelegationPolicyMode;
  admitPeer?: AdmitPeer;
}

export interface OpsPagesOptions {
  config: BatonConfig;
  redis: Redis;
  logger: Logger;
  live: LiveFeeds;
  redact: (text: string) => string;
  wiring?: OpsPagesWiring;
}

const notWired = async (): Promise<PolicyEditResult> => ({
  ok: false,
  diagnostics: [CONFIG_EDIT_UNAVAILABLE],
});

export function createOpsPagesDeps(o: OpsPagesOptions): OpsPagesDeps {
  const { redis, logger } = o;
  const w = o.wiring ?? {};
  const config = w.currentConfig ?? (() => o.config);
  const target = o.config.redis;
  const { prefix } = target;
  // The delegate queue (BullMQ + two Redis connections) only once someone cancels from this gateway.
  let queue: DelegationHandle | undefined;
  const q = () => {
    queue ??= createDelegationServices({ redisTarget: target, prefix, logger });
    return queue;
  };
  const delegation: OpsPagesDeps['delegation'] = {
    jobState: (id) => q().jobState(id),
    publishCancel: (id) => q().publishCancel(id),
    removeWaiting: (id) => q().removeWaiting(id),
  };
  return {
    config,
    configPath: w.configPath,
    logger,
    taskList: createTaskList(redis, prefix),
    tasks: createDelegateTasks(redis, prefix, logger),
    delegation,
    approvals: createApprovalStore({ redis, prefix, logger }),
    ledger: createCostLedger(redis, prefix, logger),
    applyDelegationPolicyMode: w.applyDelegationPolicyMode ?? notWired,
    refusedSenders: createRefusedSenders(redis, prefix, logger),
    admitPeer: w.admitPeer ?? notWired,
    subscriber: o.live.subscriber,
    prefix,
    redact: o.redact,
    close: async () => {
      await queue?.close();
    },
  };
}
