// baton outbound messages → Slack chat.postMessage / chat.update arguments (plain text, Block Kit buttons).
import { type types, webApi } from '@slack/bolt';
import { type Button, ChannelRateLimitError, type OutboundMessage } from '../../src/channel-host/types.ts';
import { toSlackMrkdwn } from './slack-mrkdwn.ts';

/**
 * Slack allows 40 000 characters of message text but 3 000 in a section block; one limit for both keeps a
 * chunk valid whether or not it carries buttons (the section holds the text then). mrkdwn is no longer than
 * its Markdown source except for the `&amp;`/`&lt;`/`&gt;` escapes (which the plain text had too); a section
 * Slack refuses for its length comes back as invalid_blocks and goes out as plain_text, which is not escaped.
 */
export const SLACK_MAX_MESSAGE_LENGTH = 3000;
/** Slack's limit on a button's label. */
const BUTTON_LABEL_MAX = 75;

/**
 * The plain-text fallback: `&`, `<` and `>` are escaped as Slack requires, which also keeps a reply from
 * pinging `<!channel>` or a user it quotes.
 */
export function escapeText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function button(b: Button): types.Button {
  return {
    type: 'button',
    action_id: b.id,
    value: b.value ?? b.id,
    text: { type: 'plain_text', text: [...b.label].slice(0, BUTTON_LABEL_MAX).join(''), emoji: true },
    // Slack has two colours: its `primary` is the green a `success` button asks for.
    ...(b.style ? { style: b.style === 'danger' ? 'danger' : 'primary' } : {}),
  };
}

/**
 * Section (the text) plus one actions block per row; undefined when the message has no buttons. Formatted: the
 * message's own mrkdwn markup, else its Markdown as mrkdwn; not formatted: plain_text, which shows the text as
 * written (no mentions possible).
 */
export function buildBlocks(msg: OutboundMessage, formatted = false): types.KnownBlock[] | undefined {
  const rows = (msg.buttons ?? []).filter((row) => row.length > 0);
  if (rows.length === 0) return undefined;
  return [
    formatted
      ? { type: 'section', text: { type: 'mrkdwn', text: msg.markup ?? (toSlackMrkdwn(msg.text) || ' ') } }
      : { type: 'section', text: { type: 'plain_text', text: msg.text || ' ', emoji: true } },
    ...rows.map(
      (row, i): types.ActionsBlock => ({
        type: 'actions',
        block_id: `baton-row-${i}`,
        elements: row.map(button),
      }),
    ),
  ];
}

/** chat.postMessage / chat.update arguments for the text: mrkdwn, or plain text when Slack refused that. */
export function messageArgs(msg: OutboundMessage, formatted: boolean) {
  const blocks = buildBlocks(msg, formatted);
  // Own markup: with buttons it is the section and the plain `text` only the notification; else it is the text.
  if (formatted && msg.markup) return blocks ? { text: escapeText(msg.text), blocks } : { text: msg.markup };
  return formatted
    ? { text: toSlackMrkdwn(msg.text), ...(blocks ? { blocks } : {}) }
    : { text: escapeText(msg.text), mrkdwn: false, ...(blocks ? { blocks } : {}) };
}

/** Slack refusing the formatting (blocks it cannot render): the same chunk goes again as plain text. */
export function isFormattingRejected(err: unknown): boolean {
  const data = (err as { data?: { error?: unknown } } | null)?.data;
  return (
    err instanceof Error &&
    (err as { code?: unknown }).code === webApi.ErrorCode.PlatformError &&
    (data?.error === 'invalid_blocks' || data?.error === 'invalid_blocks_format')
  );
}

/** Slack's 429 (surfaced, not retried, thanks to rejectRateLimitedCalls) becomes the pump's retry signal. */
export function mapSendError(err: unknown): unknown {
  if (err instanceof Error && (err as { code?: unknown }).code === webApi.ErrorCode.RateLimitedError) {
    const secs = Number((err as { retryAfter?: unknown }).retryAfter);
    return new ChannelRateLimitError(Number.isFinite(secs) && secs > 0 ? secs * 1000 : 1000);
  }
  return err;
}
