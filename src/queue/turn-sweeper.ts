// Re-kicks conversations that have waiting events but no drain job (a crash between accept and kick).
import type { Logger } from '../core/logger.ts';
import type { ConversationInbox } from './conversation-inbox.ts';
import type { TurnQueue } from './turn-queue.ts';

export function startTurnSweeper(
  inbox: ConversationInbox,
  turns: TurnQueue,
  logger: Logger,
  intervalMs = 15_000,
): { stop(): void } {
  const sweep = async () => {
    for (const conversation of await inbox.activeConversations()) await turns.kick(conversation);
  };
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => logger.warn({ err: String(err) }, 'turn sweep failed'));
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
