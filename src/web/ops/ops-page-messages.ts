// Every user-visible string of the operator pages (tasks, approvals, cost, config).

export const TITLES = {
  tasks: 'Background tasks',
  approvals: 'Approvals',
  cost: 'Cost',
  config: 'Config',
  senders: 'Refused senders',
} as const;

export const OPERATORS_ONLY = 'Only an operator may open this page or make this change.';
export const NO_TASKS = 'No background tasks in the last 7 days.';
export const TASK_NOT_FOUND = (id: string) => `No task found for task_id '${id}'`;
export const CANCEL_LABEL = 'Cancel';
export const cancelConfirm = (id: string, agent: string) =>
  `Cancel background task ${id} (agent '${agent}')?`;
/** Long results and errors are cut for the table; the full text stays with check_result. */
export const cutNote = (total: number) => `… (${total} characters in all)`;

export const NO_PENDING = 'No approval is waiting.';
export const NO_AUDIT = 'No settled approvals in the last 7 days.';
export const READ_ONLY_NOTE = 'Read-only: an approver answers this card in the chat it was posted to.';

export const COST_OFF = 'Cost tracking is off ([cost] enabled = false): nothing is recorded.';
export const PER_AGENT_OFF =
  'Per-agent totals are off ([cost] track_per_agent = false): each agent is held to the shared daily total.';
export const PER_AGENT_MONTH_NOTE =
  'The ledger keeps per-agent totals per UTC day only; the month is shared.';
export const NO_LIMIT = 'no ceiling of its own (the shared daily limit)';

export const CONFIG_PATH_UNKNOWN =
  'This server does not know its config file, so the config cannot be edited here.';
export const CONFIG_EDIT_UNAVAILABLE = 'Config editing is not available on this gateway (no config reload).';
export const SAVE_LABEL = 'Save';
export const BAD_MODE = (allowed: readonly string[]) => `Expected mode to be one of ${allowed.join(', ')}.`;
export const UNKNOWN_PROFILE = (p: string) => `Unknown risk profile '${p}'.`;
export const policySaved = (profile: string, mode: string) =>
  `Saved: risk_profiles.${profile}.delegation_policy.mode = "${mode}".`;
export const reloadReached = (ok: number, reached: number) =>
  `Reloaded by ${ok} of ${reached} process${reached === 1 ? '' : 'es'}.`;
export const reloadFailedIn = (role: string, process: string) => `Reload refused in ${role} ${process}:`;

// /ui/senders: recently refused senders and Admit (the pairing step; strangers get no answer in the chat).
export const NO_REFUSED = 'No message was refused in the last 7 days.';
export const REFUSED_NOTE =
  'Messages from these senders were refused: no peer group lets them talk to the agent, and baton did not answer them. Admit adds the sender’s user id (not a username, which anyone can change) to the peer group shown, keeping the config file’s comments, then reloads the deployment.';
export const ADMIT_LABEL = 'Admit';
export const admitConfirm = (userId: string, channel: string, group: string) =>
  `Admit user ${userId} of ${channel} to [peer_groups.${group}]?`;
export const SENDER_NOT_REFUSED = 'This sender is not in the list of refused senders.';
export const BAD_SENDER = 'Expected channel and user_id.';
export const admitted = (userId: string, group: string) =>
  `Admitted: "${userId}" added to peer_groups.${group}.external_peers.`;
