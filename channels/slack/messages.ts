// Operator-visible texts of the Slack adapter (logs only: nothing here reaches a chat or the model).

export const HTTP_MODE_NOT_AVAILABLE =
  'Slack HTTP mode (signing_secret without app_token) is not in this build yet: set app_token to use Socket Mode. This channel does not receive messages.';
export const RECONNECT_FAILED = 'Slack Socket Mode reconnect failed; trying again';
export const SOCKET_FRAME_SKIPPED = 'Slack Socket Mode frame skipped: malformed';
