// Every text of the sessions list and the transcript pages (delegate.md §18 strings verbatim).

export const SESSIONS_TITLE = 'Sessions';
export const NO_SESSIONS = 'No conversations yet.';
export const sessionsCount = (from: number, to: number, total: number) =>
  total === 0 ? '' : `Showing ${from}–${to} of ${total} conversations, most recent first.`;
export const COL = {
  channel: 'Channel',
  agent: 'Agent',
  chat: 'Conversation',
  last: 'Last activity',
  count: 'Messages',
  state: 'Turn',
  actions: '',
} as const;
export const STATE_RUNNING = 'running';
export const STATE_IDLE = 'idle';
export const NEWER = '← Newer';
export const OLDER = 'Older →';
export const OPEN = 'Open';

export const transcriptTitle = (agent: string) => `Transcript · ${agent}`;
export const transcriptRange = (from: number, to: number, total: number) =>
  total === 0 ? 'No stored messages.' : `Messages ${from}–${to} of ${total} (newest page first).`;
export const OLDER_MESSAGES = 'Older messages';
export const NEWER_MESSAGES = 'Newer messages';
export const BACK_TO_SESSIONS = '← All sessions';
export const UNREADABLE_ENTRY = 'This history entry could not be read.';
export const ROLE = { user: 'User', assistant: 'Assistant' } as const;
export const resultOfEarlierCall = (tool: string) => `Result of an earlier ${tool} call`;

// Cards (delegate.md §18)
export const RESPONSE = 'Response';
export const RESULT = 'Result';
export const TASK = 'Task';
export const INPUT = 'Input';
export const DETAILS = 'Details';
export const RESULT_NOT_RECORDED = 'Result not recorded';
export const COPY = 'Copy input';
export const COPIED = 'Copied';
export const COPY_FAILED = 'Copy failed';
export const DETAIL = {
  served: 'Provider/model',
  requested: 'Requested',
  mode: 'Mode',
  agentic: 'agentic',
  oneShot: 'one-shot',
  note: 'Note',
} as const;
export const GENERIC_REASON = {
  tool: '',
  malformed: 'arguments not readable as a delegation',
  oversized: 'arguments too large for a delegation card',
  background: 'background launch',
  management: 'management action',
} as const;
export const cutNote = (c: {
  shownLines: number;
  totalLines: number;
  shownBytes: number;
  totalBytes: number;
}) =>
  `Cut for display: showing ${c.shownLines} of ${c.totalLines} lines, ${c.shownBytes} of ${c.totalBytes} bytes.`;

// Abort
export const ABORT = 'Abort';
export const ABORT_CONFIRM = 'Abort the running turn of this conversation?';
export const ABORT_SENT = 'Abort sent to the running turn.';
export const ABORT_NOTHING = 'No turn is running in this conversation.';
export const ABORT_FAILED = 'The abort could not be sent.';
export const STATE_ABORTED = 'aborted';
export const UNAUTHORIZED = 'Sign in to see the dashboard.';
export const NOT_FOUND = 'No such session.';

// The live execution tree (live.md §6)
export const TREE_TITLE = 'Execution tree';
export const NO_TURNS = 'No turn of this session in the last hour.';
export const RUNNING_TURN = 'Running turn';
export const turnStarted = (iso: string | null) => (iso ? `Turn started ${iso}` : 'Turn starting');
export const KIND = {
  root: 'turn',
  cron: 'cron run',
  subagent: 'subagent',
  delegate: 'delegate',
  background: 'background task',
} as const;
export const TREE = {
  run: 'run',
  task: 'task',
  parentCall: 'from call',
  started: 'started',
  finished: 'finished',
  iterations: 'iterations',
  cost: 'cost',
  costUnknown: 'not tracked',
  transcript: 'Transcript',
  tools: 'Tool calls',
  backgroundTasks: 'Background tasks',
  approvalPending: 'Approval pending',
} as const;
export const approvalWhere = (tool: string, channel: string, chat: string, until: string) =>
  `${tool}: asked in ${channel} · ${chat}, until ${until}`;
