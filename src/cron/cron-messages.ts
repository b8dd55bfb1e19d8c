// Every text of cron agent jobs (subagents.md §11) and of the cron_* tools, in one place.

// --- run_agent_job (subagents.md §11), exact ---
export const CRON_READ_ONLY = 'blocked by security policy: autonomy is read-only';
export const CRON_RATE_LIMITED = 'blocked by security policy: rate limit exceeded';
export const CRON_BUDGET_EXHAUSTED = 'blocked by security policy: action budget exhausted';
export const CRON_JOB_EXECUTED = 'agent job executed';
export const cronJobFailed = (error: string) => `agent job failed: ${error}`;
export const cronPrompt = (alias: string, name: string, prompt: string) =>
  `[cron:${alias} ${name}] ${prompt}`;
/** The sender whose action bucket a cron run charges. */
export const cronSender = (alias: string) => `cron:${alias}`;
export const cronSessionKey = (runId: string) => `cron-${runId}`;

// --- schedule validation (baton's own texts) ---
export const scheduleErrors = {
  emptyExpr: () => "Invalid schedule: the cron expression is empty; write 5 fields like '0 9 * * *'",
  badExpr: (expr: string, reason: string) => `Invalid cron expression '${expr}': ${reason}`,
  unknownTz: (tz: string) => `Unknown time zone '${tz}'; use an IANA name such as 'Europe/Paris' or 'UTC'`,
  badEvery: () => 'Invalid schedule: every_ms must be a whole number of milliseconds, at least 1000',
  badAt: (at: string) => `Invalid schedule: '${at}' is not an RFC 3339 date-time (e.g. 2030-01-31T09:00:00Z)`,
  pastAt: (at: string) =>
    `Invalid schedule: '${at}' is in the past; a one-off 'at' job must be in the future`,
} as const;

// --- cron_* tools (baton's own texts) ---
export const cronTexts = {
  unavailable: () => 'Cron is unavailable in this process: no scheduler is running here',
  noDelivery: () =>
    'cron_add needs a delivery target: this run has no originating chat, so pass delivery {"channel": "<type>.<alias>", "recipient": "<chat id>"} naming a chat the config declares for this agent',
  foreignRecipient: (to: string, allowed: readonly string[]) =>
    `Delivery to '${to}' refused: cron_add may post only to the chat this conversation is in or to a chat the config declares for this agent (a [cron.<alias>] delivery of its cron_jobs). Allowed: ${allowed.length ? allowed.join(', ') : '(none)'}`,
  added: (id: string, next: string, to: string) => `Scheduled job ${id} (${next}); results go to ${to}`,
  notFound: (id: string) => `No cron job '${id}' for this agent`,
  declaredInConfig: (id: string) =>
    `Cron job '${id}' is declared in the config ([cron.${id}]); remove it there, not with cron_remove`,
  removed: (id: string) => `Removed cron job ${id}`,
  queued: (id: string) => `Cron job ${id} queued to run now`,
  none: () => 'No cron jobs for this agent',
} as const;
