// User-visible texts the runtime posts in a chat (not model-visible).

export const EMPTY_ANSWER = '(The agent finished without an answer.)';
export const TURN_ABORTED = '⚠️ This turn was aborted.';
/** Only for failures written for users (agent/turn-failure.ts); every other failure gets TURN_FAILED_INTERNAL. */
export const turnFailed = (message: string) => `⚠️ Sorry, I could not answer: ${message}`;
export const TURN_FAILED_INTERNAL = '⚠️ Sorry, something went wrong and I could not answer.';
/** Sent in place of the answer to a message baton stored but cannot read back (damaged or another version's). */
export const MESSAGE_UNREADABLE = '⚠️ Sorry, your message could not be processed.';
