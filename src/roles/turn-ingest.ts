// The gateway's way into the turns: the inbox, then a drain job when the conversation had nothing waiting.
import type { TurnIngest } from '../channel-host/host.ts';
import type { ConversationInbox } from '../queue/conversation-inbox.ts';
import type { IdleHints } from '../queue/idle-hints.ts';
import type { TurnQueue } from '../queue/turn-queue.ts';

/**
 * Accepts into the inbox. For a conversation hinted idle, the kick leaves right behind the ingest on the same
 * connection (Redis runs it after the ingest), instead of after the ingest's reply: when the ingest then says
 * `first`, the job already exists for the event. A failed early kick falls back to the host's own kick.
 */
export function createTurnIngest(
  inbox: ConversationInbox,
  turns: TurnQueue,
  hints: IdleHints | undefined,
): TurnIngest {
  return {
    async accept(conversation, message) {
      const kickBehind = turns.kickBehind;
      if (!kickBehind || !hints?.takeIdle(conversation)) return inbox.accept(conversation, message);
      let reordered = false; // the ingest went again after the kick: the kick may have met an empty inbox
      const accepting = inbox.accept(conversation, message, () => {
        reordered = true;
      });
      const kicked = kickBehind(conversation, message.agent).then(
        () => true,
        () => false,
      );
      const accepted = await accepting;
      return accepted === 'first' && (await kicked) && !reordered ? 'kicked' : accepted;
    },
    kick: (conversation, agent) => turns.kick(conversation, agent),
  };
}
