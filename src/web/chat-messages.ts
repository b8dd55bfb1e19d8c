// Every text of the web chat page and its JSON errors.

export const CHAT_INPUT_LABEL = 'Message';
export const CHAT_INPUT_PLACEHOLDER = 'Write a message (/new, /stop, /status work too)';
export const CHAT_SEND = 'Send';
export const CHAT_TYPING = 'working…';
export const CHAT_EMPTY = 'No messages yet. Say hello.';
export const CHAT_SIGNED_IN_AS = 'Signed in as';
export const CHAT_CONNECTION_LOST = 'Connection lost; reconnecting…';

export const noChat = (alias: string) => `no web chat '${alias}'`;
export const BAD_MESSAGE =
  'body must be {"text": string, "clientId": uuid, "uploads"?: [upload id, …]} with text or uploads';
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

// Files: the composer's picker, uploads and the files the bot sends.
export const CHAT_ATTACH = 'Attach files';
export const CHAT_UPLOADING = 'uploading…';
export const CHAT_UPLOAD_READY = 'ready';
export const CHAT_REMOVE_FILE = 'Remove';
/** The page's own line when an upload got no answer (the connection dropped). */
export const CHAT_UPLOAD_FAILED = 'The upload failed; try again.';
export const CHAT_WAIT_FOR_UPLOADS = 'A file could not be uploaded; remove it to send the message.';
export const uploadTooLarge = (limit: string) => `The file is larger than this chat's ${limit} limit.`;
export const tooManyUploads = (max: number) =>
  `You have ${max} files waiting to be sent; send them (or wait an hour) before uploading more.`;
export const EMPTY_UPLOAD = 'The file is empty.';
export const BAD_UPLOAD_NAME = 'The x-file-name header must be the file name, percent-encoded (UTF-8).';
export const UPLOAD_INTERRUPTED = 'The upload was interrupted before the whole file arrived.';
/** A message naming an upload that is not the sender's in this chat, already sent, or expired. */
export const UPLOAD_GONE_TEXT = 'A file of this message is no longer available; attach it again.';
export const FILE_NOT_FOUND = 'no such file in this chat';
