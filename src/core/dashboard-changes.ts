// What the dashboard's open pages are woken by (live.md §6 "pushed, not polled"): the scripts that write task
// records, approvals, running marks, session histories and refused senders publish `<topic>\n<subject>` on one
// channel, in the same call as the write, so a page learns of a change without asking and a write pays no extra
// round trip.
export const DASHBOARD_TOPICS = ['tasks', 'approvals', 'sessions', 'senders'] as const;
export type DashboardTopic = (typeof DASHBOARD_TOPICS)[number];

export const dashboardChannel = (prefix: string) => `${prefix}:dashboard-changes`;

/** The subject is a task id, an approval id or a session key (any text: it follows the first newline). */
export const changeMessage = (topic: DashboardTopic, subject: string) => `${topic}\n${subject}`;

export interface DashboardChange {
  topic: DashboardTopic;
  subject: string;
}

const TOPICS: ReadonlySet<string> = new Set(DASHBOARD_TOPICS);

/** Null for a message that is not a change (a reader skips it). */
export function parseChange(message: string): DashboardChange | null {
  const cut = message.indexOf('\n');
  const topic = cut < 0 ? message : message.slice(0, cut);
  if (!TOPICS.has(topic)) return null;
  return { topic: topic as DashboardTopic, subject: cut < 0 ? '' : message.slice(cut + 1) };
}

/** What a writer passes its script: where to publish and what. */
export const changeArgs = (prefix: string, topic: DashboardTopic, subject: string): [string, string] => [
  dashboardChannel(prefix),
  changeMessage(topic, subject),
];
