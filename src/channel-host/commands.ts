// Chat commands (`/new`, `/stop`, `/status`): recognised by the host after peer authorisation.
import type { InboundMessage } from './types.ts';

export const CHAT_COMMANDS = ['new', 'stop', 'status'] as const;
export type ChatCommand = (typeof CHAT_COMMANDS)[number];

/** What Telegram's command menu shows (setMyCommands); the texts live in messages.ts. */
const COMMAND = /^\/(new|stop|status)(@[A-Za-z0-9_]+)?$/;

/**
 * The command a message is, or null. The whole text must be the command (on every platform: Slack and Discord
 * slash commands need an app registration, plain text works everywhere). `/new@name` is Telegram's spelling in
 * groups; it counts only when the adapter found it addressed to this bot (addressedToBot).
 */
export function parseChatCommand(msg: Pick<InboundMessage, 'text' | 'addressedToBot'>): ChatCommand | null {
  const m = COMMAND.exec(msg.text.trim());
  if (!m) return null;
  if (m[2] && !msg.addressedToBot) return null; // another bot's command
  return m[1] as ChatCommand;
}

/** Handles `stop` and `status` at once in the gateway (they must not wait behind the running turn). */
export interface ChatCommandHandler {
  run(
    command: Exclude<ChatCommand, 'new'>,
    ctx: { conversation: string; agent: string; event: InboundMessage },
  ): Promise<void>;
}
