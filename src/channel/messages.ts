// User-visible texts the runtime posts in a chat (not model-visible).

export const EMPTY_ANSWER = '(The agent finished without an answer.)';
export const TURN_ABORTED = '⚠️ This turn was aborted.';
export const turnFailed = (message: string) => `⚠️ Sorry, I could not answer: ${message}`;
