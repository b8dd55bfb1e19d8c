// Approval prompts as channel messages (approvals.md §12.2–§12.5), and the same prompt once decided (§10.8).
// Channel-neutral output (OutboundMessage); the platform decides the layout, the button data and the markup.
import type { Button, OutboundMessage } from '../channel/types.ts';
import { type Catalog, defaultCatalog } from '../i18n/catalog.ts';
import {
  type ApprovalAction,
  type ButtonPlatform,
  discordCustomId,
  slackActionId,
  telegramCallbackData,
} from './button-ids.ts';
import { formatMarkup } from './copy.ts';

/** What a prompt shows; nothing here is raw arguments. */
export interface ApprovalCard {
  approvalId: string;
  replyToken: string;
  tool: string;
  /** The §4 summary, already redacted; empty shows as `(none)`. */
  argsSummary: string;
  /**
   * Route prompts only (§12.1, the `Agent:` line): whose call it is, and for a delegated child its immediate
   * caller. Absent for prompts in the originating chat, which have no `Agent:` line.
   */
  agent?: { name: string; caller?: string };
  /** A group chat, guild channel or Slack channel: the text prompt adds the visibility warning (§12.5). */
  group: boolean;
}

/**
 * `text`: the §12.5 text prompt, the fallback when a platform refuses buttons (Discord, Slack); it fits any
 * adapter (its markup is the text with `&`, `<` and `>` escaped, valid as Telegram HTML and as Slack mrkdwn).
 */
export type CardPlatform = ButtonPlatform | 'text';

export type CardOutcome =
  | { kind: 'approved' | 'always' | 'denied'; by: string }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

/** Telegram HTML and Slack mrkdwn both escape exactly these three. */
const escapeAngles = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const code = (s: string) => `<code>${escapeAngles(s)}</code>`;

/** The prompt with its buttons (text mode: none; the reply line says how to answer). */
export function renderApprovalCard(
  platform: CardPlatform,
  card: ApprovalCard,
  catalog: Catalog = defaultCatalog(),
): OutboundMessage {
  const body = renderBody(platform, card, catalog);
  switch (platform) {
    case 'telegram': {
      const tap = catalog.format('approval-tap-instruction');
      return {
        text: `${body.text}\n\n${tap}`,
        markup: `${body.markup}\n\n${escapeAngles(tap)}`,
        buttons: [telegramButtons(card, catalog)],
      };
    }
    case 'discord':
      return { text: body.text, buttons: [discordButtons(card, catalog)] };
    case 'slack':
      return { text: body.text, markup: body.markup, buttons: [slackButtons(card, catalog)] };
    default: {
      const instructions = textModeInstructions(card, catalog);
      return {
        text: `${body.text}\n\n${instructions}`,
        markup: `${body.markup}\n\n${escapeAngles(instructions)}`,
      };
    }
  }
}

/** The prompt once it is no longer pending: the outcome in place of the instructions, and no buttons. */
export function renderDecidedCard(
  platform: CardPlatform,
  card: ApprovalCard,
  outcome: CardOutcome,
  catalog: Catalog = defaultCatalog(),
): OutboundMessage {
  const body = renderBody(platform, card, catalog);
  const line = outcomeLine(outcome, catalog);
  return {
    text: `${body.text}\n\n${line}`,
    ...(body.markup ? { markup: `${body.markup}\n\n${escapeAngles(line)}` } : {}),
    buttons: [],
  };
}

/** `✅ Approved by X`, `✅✅ Always approved by X`, `❌ Denied by X`, `⌛ Expired: …`, `🚫 Cancelled: …`. */
export function outcomeLine(outcome: CardOutcome, catalog: Catalog = defaultCatalog()): string {
  switch (outcome.kind) {
    case 'approved':
      return `✅ ${catalog.format('approval-outcome-approved', { user: outcome.by })}`;
    case 'always':
      return `✅✅ ${catalog.format('approval-outcome-always', { user: outcome.by })}`;
    case 'denied':
      return `❌ ${catalog.format('approval-outcome-denied', { user: outcome.by })}`;
    case 'expired':
      return `⌛ ${catalog.format('approval-outcome-expired')}`;
    default:
      return `🚫 ${catalog.format('approval-outcome-cancelled')}`;
  }
}

/** The §12.5 reply line, plus the group visibility warning in a group chat. */
function textModeInstructions(card: ApprovalCard, catalog: Catalog): string {
  const t = card.replyToken;
  const reply = catalog.format('approval-reply-yes-no', {
    yes_command: `${t} yes`,
    no_command: `${t} no`,
    always_command: `${t} always`,
  });
  return card.group ? `${reply}\n\n${catalog.format('approval-group-warning')}` : reply;
}

/** Heading, Tool, [Agent], Args: plain text, and the platform's markup where it has one. */
function renderBody(
  platform: CardPlatform,
  card: ApprovalCard,
  catalog: Catalog,
): { text: string; markup?: string } {
  const f = (key: string) => catalog.format(key);
  const args = card.argsSummary === '' ? f('approval-args-none') : card.argsSummary;
  const agent = card.agent;
  const agentValue = (wrap: (s: string) => string, escapeText: (s: string) => string) =>
    agent?.caller
      ? formatMarkup(
          catalog,
          'approval-agent-delegated',
          { target: wrap(agent.name), caller: wrap(agent.caller) },
          escapeText,
        )
      : wrap(agent?.name ?? '');
  const plainAgent = agent
    ? [
        `${f('approval-agent-label')}: ${agentValue(
          (s) => s,
          (s) => s,
        )}`,
      ]
    : [];
  const plainFields = [
    `${f('approval-tool-label')}: ${card.tool}`,
    ...plainAgent,
    `${f('approval-args-label')}: ${args}`,
  ];

  if (platform === 'telegram') {
    const e = escapeAngles;
    const htmlAgent = agent ? [`${e(f('approval-agent-label'))}: ${agentValue(code, e)}`] : [];
    const html = [
      `${e(f('approval-tool-label'))}: ${code(card.tool)}`,
      ...htmlAgent,
      `${e(f('approval-args-label'))}: ${code(args)}`,
    ];
    return {
      text: `🔧 ${f('approval-heading')}\n\n${plainFields.join('\n')}`,
      markup: `🔧 <b>${e(f('approval-heading'))}</b>\n\n${html.join('\n')}`,
    };
  }
  const shout = f('approval-heading-shout');
  if (platform === 'discord') return { text: [shout, ...plainFields].join('\n') };
  const heading = `${shout} [${card.replyToken}]`;
  if (platform === 'text') {
    // As markup too: the adapter then sends it as written (Telegram HTML and Slack mrkdwn escape just these).
    const text = [heading, ...plainFields].join('\n');
    return { text, markup: escapeAngles(text) };
  }
  const e = escapeAngles;
  const bold = (label: string) => `*${e(f(label))}:*`;
  const mrkdwn = [
    `*${e(shout)}* [\`${card.replyToken}\`]`,
    `${bold('approval-tool-label')} \`${e(card.tool)}\``,
    ...(agent ? [`${bold('approval-agent-label')} ${agentValue(e, e)}`] : []),
    `${bold('approval-args-label')} ${e(args)}`,
  ];
  return { text: [heading, ...plainFields].join('\n'), markup: mrkdwn.join('\n') };
}

function telegramButtons(card: ApprovalCard, catalog: Catalog): Button[] {
  const b = (prefix: string, key: string, action: ApprovalAction): Button => ({
    id: telegramCallbackData(card.approvalId, action),
    label: `${prefix} ${catalog.format(key)}`,
  });
  return [
    b('✅', 'approval-button-approve', 'approve'),
    b('❌', 'approval-button-deny', 'deny'),
    b('✅✅', 'approval-button-always', 'always'),
  ];
}

function discordButtons(card: ApprovalCard, catalog: Catalog): Button[] {
  const id = card.approvalId;
  return [
    { id: discordCustomId(id, '1'), label: catalog.format('approval-discord-allow-once'), style: 'success' },
    {
      id: discordCustomId(id, '2'),
      label: catalog.format('approval-discord-allow-session'),
      style: 'primary',
    },
    // No style: the adapter's default, Secondary.
    { id: discordCustomId(id, '3'), label: catalog.format('approval-discord-always-allow') },
    { id: discordCustomId(id, '0'), label: catalog.format('approval-button-deny'), style: 'danger' },
  ];
}

function slackButtons(card: ApprovalCard, catalog: Catalog): Button[] {
  const b = (key: string, action: ApprovalAction, style?: Button['style']): Button => ({
    id: slackActionId(card.replyToken, action),
    label: catalog.format(key),
    value: card.approvalId,
    ...(style ? { style } : {}),
  });
  return [
    b('approval-button-approve', 'approve', 'primary'),
    b('approval-button-deny', 'deny', 'danger'),
    b('approval-button-always', 'always'),
  ];
}
