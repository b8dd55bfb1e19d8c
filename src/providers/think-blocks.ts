// Removes model reasoning (`<think>…</think>`) from response text.

const CLOSED_BLOCK = /<think>[\s\S]*?<\/think>/g;

/**
 * Drops every `<think>…</think>` block. Some chat templates open the block in the prompt, so a
 * stray `</think>` drops everything before it; an unclosed `<think>` drops everything after it.
 */
export function stripThinkBlocks(text: string): string {
  let out = text.replace(CLOSED_BLOCK, '');
  const strayClose = out.lastIndexOf('</think>');
  if (strayClose !== -1) out = out.slice(strayClose + '</think>'.length);
  const unclosed = out.indexOf('<think>');
  if (unclosed !== -1) out = out.slice(0, unclosed);
  return out.trim();
}
