// What the fake Telegram server knows: the update queue (with offset confirmation), the chats' messages, and
// the answers to Bot API methods other than getUpdates.
import { parseTelegramHtml } from './telegram-html.ts';
import {
  apiError,
  chatFor,
  type ErrorReply,
  mentionEntities,
  now,
  type OkReply,
  ok,
  type TgChat,
  type TgEntity,
  type TgMessage,
  type TgUpdateBody,
  type TgUser,
  user,
} from './telegram-wire.ts';

/** A message the bot sent, with every text and keyboard it had (the first entry is the send). */
export interface SentMessage {
  message: TgMessage;
  /** `text` is what the chat shows (HTML parsed); `html` the source when sent with parse_mode HTML. */
  versions: { text: string; html?: string; reply_markup?: TgMessage['reply_markup'] }[];
  /** Set once deleteMessage removed it from the chat (sentTo no longer lists it). */
  deleted?: boolean;
}

export interface InjectMessageOptions {
  /** A chat id (positive: private, negative: supergroup) or a full chat. */
  chat: number | TgChat;
  /** The sender (a user id makes a plain user). */
  from?: number | TgUser;
  text?: string;
  /** Defaults to `mention` entities for every `@word` in the text. */
  entities?: TgEntity[];
  /** A forum topic: sets message_thread_id and is_topic_message. */
  thread?: number;
  replyTo?: TgMessage;
  /** Extra message fields (photo, caption, new_chat_members, ...). */
  extra?: Record<string, unknown>;
}

export interface TelegramState {
  readonly bot: TgUser;
  /** Messages the bot sent, in order. */
  readonly sent: SentMessage[];
  /** Chats that got a typing action: `{ chat_id, message_thread_id? }` per call. */
  readonly typings: Record<string, unknown>[];
  /** The highest offset the bot confirmed (updates below it are gone). */
  readonly confirmedOffset: number;
  /** The webhook set by setWebhook (url, secret_token, allowed_updates…); null after deleteWebhook. */
  readonly webhook: Record<string, unknown> | null;
  /** Queues an update (a new id unless `updateId`); `redeliver` hands it out again even if confirmed. */
  injectUpdate(body: TgUpdateBody, opts?: { updateId?: number; redeliver?: boolean }): number;
  injectMessage(opts: InjectMessageOptions): { updateId: number; message: TgMessage };
  /** Runs `inject` with waiting getUpdates held back, so what it queues goes out in one batch (an album). */
  together<T>(inject: () => T): T;
  /** A press on a button of one of the bot's messages. */
  injectCallback(opts: { message: TgMessage; from: number | TgUser; data: string }): {
    updateId: number;
    id: string;
  };
  /** A file the bot sent (sendPhoto / sendDocument / sendVoice): a message with the file and its caption. */
  sentFile(
    chatId: number,
    thread: number | undefined,
    file: Record<string, unknown>,
    caption?: string,
  ): TgMessage;
  /** Sent messages to a chat (and topic, when given). */
  sentTo(chatId: number, thread?: number): SentMessage[];
  pending(offset: number, limit: number): Record<string, unknown>[];
  confirm(offset: number): void;
  onUpdate(listener: () => void): void;
  call(method: string, params: Record<string, unknown>): OkReply | ErrorReply;
}

export function createTelegramState(opts: { botUsername: string }): TelegramState {
  const bot = user(9_000_001, opts.botUsername, true);
  const queue: { update_id: number; redeliver: boolean; body: TgUpdateBody }[] = [];
  const sent: SentMessage[] = [];
  const typings: Record<string, unknown>[] = [];
  const chats = new Map<number, TgChat>();
  const listeners: (() => void)[] = [];
  let nextUpdateId = 100;
  let nextMessageId = 500;
  let nextCallbackId = 1;
  let confirmedOffset = 0;
  let webhook: Record<string, unknown> | null = null;
  let holding = 0;
  const notify = () => {
    if (!holding) for (const l of listeners) l();
  };

  const chatOf = (id: unknown): TgChat | null => {
    const n = Number(id);
    if (!Number.isSafeInteger(n) || n === 0) return null;
    return chats.get(n) ?? chatFor(n);
  };
  const findSent = (chatId: unknown, messageId: unknown) =>
    sent.find(
      (s) => !s.deleted && s.message.chat.id === Number(chatId) && s.message.message_id === Number(messageId),
    );
  const markup = (p: Record<string, unknown>) => p.reply_markup as TgMessage['reply_markup'] | undefined;

  const state: TelegramState = {
    bot,
    sent,
    typings,
    get confirmedOffset() {
      return confirmedOffset;
    },
    get webhook() {
      return webhook;
    },
    injectUpdate(body, o = {}) {
      const update_id = o.updateId ?? nextUpdateId++;
      nextUpdateId = Math.max(nextUpdateId, update_id + 1);
      queue.push({ update_id, redeliver: o.redeliver ?? false, body });
      notify();
      return update_id;
    },
    together(inject) {
      holding++;
      try {
        return inject();
      } finally {
        holding--;
        notify();
      }
    },
    injectMessage(o) {
      const chat = typeof o.chat === 'number' ? chatFor(o.chat) : o.chat;
      chats.set(chat.id, chat);
      const from = typeof o.from === 'object' ? o.from : user(o.from ?? 1001);
      const entities = o.entities ?? (o.text ? mentionEntities(o.text) : []);
      const message: TgMessage = {
        message_id: nextMessageId++,
        date: now(),
        chat,
        from,
        ...(o.text !== undefined ? { text: o.text } : {}),
        ...(entities.length ? { entities } : {}),
        ...(o.thread !== undefined ? { message_thread_id: o.thread, is_topic_message: true } : {}),
        ...(o.replyTo ? { reply_to_message: o.replyTo } : {}),
        ...o.extra,
      };
      return { updateId: state.injectUpdate({ message }), message };
    },
    injectCallback(o) {
      const id = `cbq-${nextCallbackId++}`;
      const from = typeof o.from === 'object' ? o.from : user(o.from);
      const callback_query = {
        id,
        from,
        chat_instance: `ci-${o.message.chat.id}`,
        message: o.message,
        data: o.data,
      };
      return { updateId: state.injectUpdate({ callback_query }), id };
    },
    sentFile(chatId, thread, file, caption) {
      const message: TgMessage = {
        message_id: nextMessageId++,
        date: now(),
        chat: chatOf(chatId) ?? chatFor(chatId),
        from: bot,
        ...file,
        ...(caption ? { caption } : {}),
        ...(thread !== undefined ? { message_thread_id: thread, is_topic_message: true } : {}),
      };
      sent.push({ message, versions: [{ text: caption ?? '' }] });
      return message;
    },
    sentTo: (chatId, thread) =>
      sent.filter(
        (s) =>
          !s.deleted &&
          s.message.chat.id === chatId &&
          (thread === undefined || s.message.message_thread_id === thread),
      ),
    pending(offset, limit) {
      return queue
        .filter((u) => u.update_id >= offset || u.redeliver)
        .slice(0, limit)
        .map((u) => {
          u.redeliver = false; // handed out once; confirmation applies from now on
          return { update_id: u.update_id, ...u.body };
        });
    },
    confirm(offset) {
      if (offset <= confirmedOffset) return;
      confirmedOffset = offset;
      for (let i = queue.length - 1; i >= 0; i--) {
        const u = queue[i];
        if (u && u.update_id < offset && !u.redeliver) queue.splice(i, 1);
      }
    },
    onUpdate: (l) => void listeners.push(l),
    call(method, p) {
      switch (method) {
        case 'getMe':
          return ok({
            ...bot,
            can_join_groups: true,
            can_read_all_group_messages: false,
            supports_inline_queries: false,
          });
        case 'setWebhook': {
          if (typeof p.url !== 'string' || !p.url)
            return apiError(400, 'Bad Request: bad webhook: url is empty');
          webhook = { ...p };
          return ok(true);
        }
        case 'deleteWebhook':
          webhook = null;
          return ok(true);
        case 'getWebhookInfo':
          return ok({
            url: String(webhook?.url ?? ''),
            has_custom_certificate: false,
            pending_update_count: 0,
          });
        case 'setMyCommands':
        case 'answerCallbackQuery':
          return ok(true);
        case 'sendChatAction': {
          if (!chatOf(p.chat_id)) return apiError(400, 'Bad Request: chat not found');
          typings.push(p);
          return ok(true);
        }
        case 'sendMessage': {
          const chat = chatOf(p.chat_id);
          if (!chat) return apiError(400, 'Bad Request: chat not found');
          if (typeof p.text !== 'string' || !p.text)
            return apiError(400, 'Bad Request: message text is empty');
          const parsed = shownText(p);
          if (!parsed.ok) return apiError(400, parsed.description);
          const { text, html } = parsed;
          if (text.length > 4096) return apiError(400, 'Bad Request: message is too long');
          const thread = typeof p.message_thread_id === 'number' ? p.message_thread_id : undefined;
          const message: TgMessage = {
            message_id: nextMessageId++,
            date: now(),
            chat,
            from: bot,
            text,
            ...(thread !== undefined ? { message_thread_id: thread, is_topic_message: true } : {}),
            ...(markup(p) ? { reply_markup: markup(p) } : {}),
          };
          const m = markup(p);
          sent.push({ message, versions: [{ text, ...html, ...(m ? { reply_markup: m } : {}) }] });
          return ok(message);
        }
        case 'editMessageText': {
          const found = findSent(p.chat_id, p.message_id);
          if (!found) return apiError(400, 'Bad Request: message to edit not found');
          const parsed = shownText(p);
          if (!parsed.ok) return apiError(400, parsed.description);
          const { text, html } = parsed;
          const m = markup(p);
          const sameMarkup =
            JSON.stringify(m?.inline_keyboard ?? []) ===
            JSON.stringify(found.message.reply_markup?.inline_keyboard ?? []);
          if (text === found.message.text && sameMarkup) {
            return apiError(400, 'Bad Request: message is not modified');
          }
          found.message.text = text;
          if (m?.inline_keyboard.length) found.message.reply_markup = m;
          else delete found.message.reply_markup;
          found.versions.push({ text, ...html, ...(m ? { reply_markup: m } : {}) });
          return ok(found.message);
        }
        case 'deleteMessage': {
          const found = findSent(p.chat_id, p.message_id);
          if (!found) return apiError(400, 'Bad Request: message to delete not found');
          found.deleted = true;
          return ok(true);
        }
        default:
          return apiError(404, 'Not Found: method not found');
      }
    },
  };
  return state;
}

/** The text a chat shows for a send/edit: parse_mode HTML parsed as Telegram does, anything else as sent. */
function shownText(
  p: Record<string, unknown>,
): { ok: true; text: string; html: { html?: string } } | { ok: false; description: string } {
  const raw = String(p.text ?? '');
  if (p.parse_mode === undefined) return { ok: true, text: raw, html: {} };
  if (p.parse_mode !== 'HTML') return { ok: false, description: 'Bad Request: unsupported parse_mode' };
  const parsed = parseTelegramHtml(raw);
  return parsed.ok ? { ok: true, text: parsed.text, html: { html: raw } } : parsed;
}
