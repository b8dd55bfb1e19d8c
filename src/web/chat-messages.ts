// Every text of the web chat page and its JSON errors.

export const CHAT_INPUT_LABEL = 'Message';
export const CHAT_INPUT_PLACEHOLDER = 'Write a message (/new, /stop, /status work too)';
export const CHAT_SEND = 'Send';
export const CHAT_TYPING = 'working…';
export const CHAT_EMPTY = 'No messages yet. Say hello.';
export const CHAT_SIGNED_IN_AS = 'Signed in as';
export const CHAT_CONNECTION_LOST = 'Connection lost; reconnecting…';

export const noChat = (alias: string) => `no web chat '${alias}'`;
export const BAD_MESSAGE = 'body must be {"text": non-empty string, "clientId": uuid}';
export const BAD_ACTION = 'body must be {"messageId": string, "actionId": string}';
/** What the page shows when the host did not take a message (the reason code is in the JSON too). */
export const NOT_ACCEPTED: Record<string, string> = {
  unauthorised: 'You are not allowed to talk to this agent here (peer_groups).',
  no_agent: 'No agent serves this chat.',
  duplicate: 'Already sent.',
  invalid: 'The message could not be read.',
  not_addressed: 'The message was not addressed to the bot.',
  unhandled: 'Nothing handles this button.',
};
