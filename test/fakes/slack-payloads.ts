// Slack wire payloads the fake sends: events_api message / app_mention callbacks and block_actions presses.

export const FAKE_TEAM = 'T0FAKE';
export const FAKE_APP = 'A0FAKE';
export const FAKE_BOT_USER = 'U0BOT';
export const FAKE_BOT_ID = 'B0BOT';

export interface MessageEventInput {
  channel: string;
  user?: string;
  text?: string;
  /** Defaults to a fresh ts. */
  ts?: string;
  thread_ts?: string;
  /** `channel` (default), `im`, `group`, `mpim`. */
  channel_type?: string;
  /** `app_mention` delivers the same message as the mention event instead of `message`. */
  type?: 'message' | 'app_mention';
  /** File objects (FakeSlackFiles.host): the event becomes a `file_share` message carrying them. */
  files?: unknown[];
  /** Anything else the event should carry (subtype, bot_id, files, parent_user_id…), or overrides. */
  extra?: Record<string, unknown>;
}

let tsCounter = 0;
/** A Slack-style message timestamp, unique within this process. */
export function nextTs(): string {
  tsCounter++;
  return `${Math.floor(Date.now() / 1000)}.${String(tsCounter).padStart(6, '0')}`;
}

let eventCounter = 0;
export function nextEventId(): string {
  return `Ev${String(++eventCounter).padStart(8, '0')}`;
}

/** The `event` object of an events_api callback. */
export function messageEvent(input: MessageEventInput): Record<string, unknown> {
  const ts = input.ts ?? nextTs();
  return {
    type: input.type ?? 'message',
    channel: input.channel,
    user: input.user ?? 'U0ALICE',
    text: input.text ?? '',
    ts,
    event_ts: ts,
    ...(input.type === 'app_mention' ? {} : { channel_type: input.channel_type ?? 'channel' }),
    ...(input.thread_ts ? { thread_ts: input.thread_ts } : {}),
    team: FAKE_TEAM,
    client_msg_id: `cm-${ts}`,
    ...(input.files ? { subtype: 'file_share', files: input.files, upload: false } : {}),
    ...input.extra,
  };
}

/** An events_api envelope payload (`event_callback`) around `event`. */
export function eventCallback(
  event: Record<string, unknown>,
  eventId = nextEventId(),
): Record<string, unknown> {
  return {
    token: 'verification-token',
    team_id: FAKE_TEAM,
    api_app_id: FAKE_APP,
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      { team_id: FAKE_TEAM, user_id: FAKE_BOT_USER, is_bot: true, is_enterprise_install: false },
    ],
    is_ext_shared_channel: false,
  };
}

export interface PressInput {
  channel: string;
  messageTs: string;
  /** The thread the message is in, if any. */
  threadTs?: string;
  actionId: string;
  /** The pressed button's `value` (Slack sends the one the button was posted with); default: the action id. */
  value?: string;
  user?: string;
  username?: string;
  blocks?: unknown[];
  text?: string;
}

let triggerCounter = 0;
/** An interactive `block_actions` payload for a press on a button of the bot's message. */
export function blockActions(input: PressInput, apiUrl: string): Record<string, unknown> {
  const actionTs = nextTs();
  const user = input.user ?? 'U0ALICE';
  return {
    type: 'block_actions',
    user: {
      id: user,
      username: input.username ?? 'alice',
      name: input.username ?? 'alice',
      team_id: FAKE_TEAM,
    },
    api_app_id: FAKE_APP,
    token: 'verification-token',
    container: {
      type: 'message',
      message_ts: input.messageTs,
      channel_id: input.channel,
      is_ephemeral: false,
      ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
    },
    trigger_id: `trig-${++triggerCounter}-${actionTs}`,
    team: { id: FAKE_TEAM, domain: 'fake' },
    channel: { id: input.channel, name: 'fake-channel' },
    message: {
      type: 'message',
      user: FAKE_BOT_USER,
      bot_id: FAKE_BOT_ID,
      ts: input.messageTs,
      text: input.text ?? '',
      blocks: input.blocks ?? [],
      ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
    },
    state: { values: {} },
    response_url: `${apiUrl}response/${actionTs}`,
    actions: [
      {
        action_id: input.actionId,
        block_id: 'b0',
        text: { type: 'plain_text', text: input.actionId, emoji: true },
        value: input.value ?? input.actionId,
        type: 'button',
        action_ts: actionTs,
      },
    ],
  };
}
