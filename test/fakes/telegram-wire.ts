// Bot API shapes the fake Telegram server speaks: users, chats, messages, updates (core.telegram.org/bots/api).

export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
}

export type TgChatType = 'private' | 'group' | 'supergroup' | 'channel';

export interface TgChat {
  id: number;
  type: TgChatType;
  is_forum?: boolean;
  title?: string;
}

export interface TgEntity {
  type: string;
  offset: number;
  length: number;
  user?: TgUser;
}

export interface TgInlineButton {
  text: string;
  callback_data?: string;
  style?: string;
}

/** A message as the fake stores and returns it (the bot's sent messages, and injected ones). */
export interface TgMessage {
  message_id: number;
  date: number;
  chat: TgChat;
  from?: TgUser;
  text?: string;
  caption?: string;
  entities?: TgEntity[];
  message_thread_id?: number;
  is_topic_message?: boolean;
  reply_to_message?: TgMessage;
  reply_markup?: { inline_keyboard: TgInlineButton[][] };
  [extra: string]: unknown;
}

/** An update without its id (the fake numbers them); any other update kind goes in as extra keys. */
export type TgUpdateBody = Record<string, unknown>;

export const now = () => Math.floor(Date.now() / 1000);

export function user(id: number, username?: string, isBot = false): TgUser {
  return { id, is_bot: isBot, first_name: username ?? `user${id}`, ...(username ? { username } : {}) };
}

/** Positive ids are private chats, negative ones supergroups (as on Telegram). */
export function chatFor(id: number, opts: { type?: TgChatType; forum?: boolean } = {}): TgChat {
  const type = opts.type ?? (id > 0 ? 'private' : 'supergroup');
  return {
    id,
    type,
    ...(opts.forum ? { is_forum: true } : {}),
    ...(type !== 'private' ? { title: `chat ${id}` } : {}),
  };
}

/** `@name` mention entities for every `@word` in the text (what Telegram's clients produce). */
export function mentionEntities(text: string): TgEntity[] {
  return [...text.matchAll(/@\w+/g)].map((m) => ({ type: 'mention', offset: m.index, length: m[0].length }));
}

export interface OkReply {
  ok: true;
  result: unknown;
}
export interface ErrorReply {
  ok: false;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number };
}

export const ok = (result: unknown): OkReply => ({ ok: true, result });
export const apiError = (code: number, description: string, retryAfter?: number): ErrorReply => ({
  ok: false,
  error_code: code,
  description,
  ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
});
