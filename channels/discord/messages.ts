// Model-visible texts the Discord adapter adds to an inbound message.

/** Appended to a caption sent with a file: the model learns something was attached that it cannot see. */
export const attachmentNote = (kind: string) => `[attachment: ${kind}]`;
