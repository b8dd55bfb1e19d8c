// Buttons → Discord message components, and discord.js REST errors → the channel contract's errors.
import {
  ActionRowBuilder,
  type APIActionRowComponent,
  type APIComponentInActionRow,
  ButtonBuilder,
  ButtonStyle,
  DiscordAPIError,
  RateLimitError,
} from 'discord.js';
import { type Button, ChannelRateLimitError } from '../../src/channel-host/types.ts';

/** Discord's limits: 5 buttons per action row, 5 rows per message, 80 characters per label. */
const BUTTONS_PER_ROW = 5;
const ROWS_PER_MESSAGE = 5;
const LABEL_MAX = 80;

const STYLES = {
  primary: ButtonStyle.Primary,
  success: ButtonStyle.Success,
  danger: ButtonStyle.Danger,
} as const;

/**
 * Action rows for `buttons` (none: `[]`, which also removes buttons on an edit). Rows longer than Discord allows
 * wrap onto the next row; what still does not fit is reported in `dropped` (the adapter degrades, never fails).
 */
export function toComponents(buttons: Button[][] | undefined): {
  rows: APIActionRowComponent<APIComponentInActionRow>[];
  dropped: number;
} {
  const wrapped: Button[][] = [];
  for (const row of buttons ?? []) {
    for (let i = 0; i < row.length; i += BUTTONS_PER_ROW) wrapped.push(row.slice(i, i + BUTTONS_PER_ROW));
  }
  const kept = wrapped.slice(0, ROWS_PER_MESSAGE);
  const dropped = wrapped.slice(ROWS_PER_MESSAGE).reduce((n, row) => n + row.length, 0);
  const rows = kept.map((row) =>
    new ActionRowBuilder<ButtonBuilder>()
      .addComponents(
        row.map((b) =>
          new ButtonBuilder()
            .setCustomId(b.id)
            .setLabel(b.label.length > LABEL_MAX ? `${b.label.slice(0, LABEL_MAX - 1)}…` : b.label)
            .setStyle(b.style ? STYLES[b.style] : ButtonStyle.Secondary),
        ),
      )
      .toJSON(),
  );
  return { rows, dropped };
}

/** Runs a REST call; a rate limit discord.js gave up waiting for becomes a ChannelRateLimitError for the pump. */
export async function restCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RateLimitError) {
      throw new ChannelRateLimitError(Math.max(err.retryAfter, err.timeToReset, err.sublimitTimeout, 1));
    }
    // Not expected (discord.js handles 429s itself), but a 429 must never count as a failed send.
    if (err instanceof DiscordAPIError && err.status === 429) throw new ChannelRateLimitError(1000);
    throw err;
  }
}
