// Texts the runtime posts in a chat, and the notes adapters add to what the model reads.

export const EMPTY_ANSWER = '(The agent finished without an answer.)';
export const TURN_ABORTED = '⚠️ This turn was aborted.';
/** Only for failures written for users (agent/turn-failure.ts); every other failure gets TURN_FAILED_INTERNAL. */
export const turnFailed = (message: string) => `⚠️ Sorry, I could not answer: ${message}`;
export const TURN_FAILED_INTERNAL = '⚠️ Sorry, something went wrong and I could not answer.';
/** Sent in place of the answer to a message baton stored but cannot read back (damaged or another version's). */
export const MESSAGE_UNREADABLE = '⚠️ Sorry, your message could not be processed.';

// Chat commands (src/channel-host/commands.ts).
export const COMMAND_DESCRIPTIONS = {
  new: 'Start a fresh session (earlier messages are forgotten)',
  stop: 'Stop the running answer',
  status: 'Show agent, model, running answer and background tasks',
} as const;
export const NEW_SESSION_STARTED =
  '🆕 New session: earlier messages are no longer part of this conversation.';
export const STOP_REQUESTED = '⏹️ Stopping the running turn.';
export const STOP_NOTHING_RUNNING = 'Nothing is running in this chat.';
export const COMMAND_FAILED = '⚠️ Sorry, that command failed. Please try again.';
export function statusText(s: {
  agent: string;
  model: string;
  turnRunning: boolean;
  tasks: ReadonlyArray<{ agent: string; elapsedSecs: number }>;
}): string {
  const lines = [
    `Agent: ${s.agent}`,
    `Model: ${s.model || '(none configured)'}`,
    `Turn: ${s.turnRunning ? 'running' : 'idle'}`,
    s.tasks.length
      ? `Background tasks: ${s.tasks.length} running (${s.tasks.map((t) => `${t.agent}, ${t.elapsedSecs}s`).join('; ')})`
      : 'Background tasks: none',
  ];
  return lines.join('\n');
}

// A refused sender (host.ts, admission.ts): the operator's log line, once per sender and channel.
export const refusedSenderLog = (
  channel: string,
  agent: string,
  who: { id: string; username?: string | undefined },
  group: string,
  exists: boolean,
): string =>
  `message refused: no peer group lets ${channel} user ${who.id}${
    who.username ? ` (@${who.username.replace(/^@/, '')})` : ''
  } talk to agent '${agent}'; to admit them, ${
    exists ? `add "${who.id}" to external_peers of [peer_groups.${group}]` : `add [peer_groups.${group}]`
  } as in peer_groups_entry (or use Admit on the dashboard's Refused senders page). Logged once a day per sender and channel.`;
