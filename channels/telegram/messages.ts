// Texts the Telegram adapter puts in front of the model or in logs' user-facing parts.

/** Appended to a caption so the model knows a file came with it (the file itself is not passed on yet). */
export const attachmentNote = (kind: string) => `[attachment: ${kind}]`;
