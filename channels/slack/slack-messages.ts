// Operator-visible texts of the Slack adapter (logs and HTTP error bodies: nothing here reaches a chat or the model).

export const NO_MODE =
  'Slack channel has neither app_token (Socket Mode) nor signing_secret (HTTP mode). This channel does not receive messages.';
export const RECONNECT_FAILED = 'Slack Socket Mode reconnect failed; trying again';
export const SOCKET_FRAME_SKIPPED = 'Slack Socket Mode frame skipped: malformed';
export const HTTP_REQUEST_REJECTED = 'Slack HTTP request rejected: signature check failed';
export const HTTP_REQUEST_SKIPPED = 'Slack HTTP request acknowledged and skipped';
export const HTTP_WORK_FAILED = 'Slack HTTP request handling failed after the response';
export const HTTP_HANDOVER_FAILED =
  'Slack HTTP request not handed over in time; answered 500 (Slack redelivers an event; a presser sees an error)';
export const HANDOVER_FAILED_BODY = 'event not accepted yet; retry';
export const HTTP_MODE_LISTENING = 'Slack HTTP mode: events and interactivity on the gateway port';
export const BAD_SIGNATURE_BODY = 'invalid slack request signature';
export const NOT_STARTED_BODY = 'channel not started';
