// What a dialect draws an approval card from (approvals.md §12): the neutral card, catalog access, the plain
// field lines every layout shares, and a press read back from button data. Layouts live in channels/<kind>/.
export type ApprovalAction = 'approve' | 'always' | 'deny';

/**
 * Why an operator is asked (the card's `Reason:` line): the gate's rule (`always_ask` lists the tool, or the tool
 * is not auto-approved) and the tool's own policy (a shell command's risk or write). One prompt names them all.
 */
export const APPROVAL_REASONS = [
  'always_ask',
  'not_auto_approved',
  'high_risk_command',
  'command_writes',
  'medium_risk_command',
  'exec_config_write',
] as const;
export type ApprovalReason = (typeof APPROVAL_REASONS)[number];

/** A press read back from its button data. */
export interface ApprovalPress {
  approvalId: string;
  action: ApprovalAction;
  /** The reply token carried in the button data where a platform puts it there; the record's must equal it. */
  token?: string;
}

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
  /** A group chat, guild channel or shared channel: the text prompt adds the visibility warning (§12.5). */
  group: boolean;
  /** Why the operator is asked; absent or empty: no `Reason:` line (records written before the field). */
  reasons?: readonly ApprovalReason[];
}

/** The catalog as a card layout uses it: the dialect picks the keys (its platform's copy), the catalog the words. */
export interface CardCopy {
  format(key: string, args?: Record<string, string>): string;
}

/** Lower-case canonical UUID v4, as crypto.randomUUID() makes them. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const isApprovalId = (s: string): boolean => UUID_V4.test(s);

const ACTIONS: readonly ApprovalAction[] = ['approve', 'always', 'deny'];
export const isApprovalAction = (s: string): s is ApprovalAction =>
  (ACTIONS as readonly string[]).includes(s);

/**
 * Formats `key` with its arguments already in a markup: the catalog's own text is escaped with `escapeText`, the
 * arguments are inserted as given. A translation can then hold any character.
 */
export function formatMarkup(
  catalog: CardCopy,
  key: string,
  markupArgs: Record<string, string>,
  escapeText: (text: string) => string,
): string {
  const names = Object.keys(markupArgs);
  // Private-use placeholders: no translation or escape touches them.
  const slot = (i: number) => `\u{F0000}${i}\u{F0001}`;
  const text = catalog.format(key, Object.fromEntries(names.map((n, i) => [n, slot(i)])));
  return text
    .split(/(\u{F0000}\d+\u{F0001})/u)
    .map((part) => {
      const m = /^\u{F0000}(\d+)\u{F0001}$/u.exec(part);
      return m ? markupArgs[names[Number(m[1])]!]! : escapeText(part);
    })
    .join('');
}

/** The args as shown: the summary, or `(none)`. */
export const cardArgs = (card: ApprovalCard, copy: CardCopy): string =>
  card.argsSummary === '' ? copy.format('approval-args-none') : card.argsSummary;

/** The `Agent:` value (`coder`, or `coder (delegated by main)`) in a markup: `wrap` a name, `escapeText` the copy. */
export function cardAgentValue(
  card: ApprovalCard,
  copy: CardCopy,
  wrap: (s: string) => string,
  escapeText: (s: string) => string,
): string {
  const agent = card.agent;
  if (!agent?.caller) return wrap(agent?.name ?? '');
  return formatMarkup(
    copy,
    'approval-agent-delegated',
    { target: wrap(agent.name), caller: wrap(agent.caller) },
    escapeText,
  );
}

/** The `Reason:` value (`always_ask lists shell; the command may write`), or null when the card has no reason. */
export function cardReasons(card: ApprovalCard, copy: CardCopy): string | null {
  const reasons = card.reasons ?? [];
  // The supervised default alone is the spec's plain prompt (approvals.md §12): no `Reason:` line.
  if (reasons.length === 0 || (reasons.length === 1 && reasons[0] === 'not_auto_approved')) return null;
  return reasons
    .map((r) => copy.format(`approval-reason-${r.replaceAll('_', '-')}`, { tool: card.tool }))
    .join('; ');
}

/** `Tool: …`, [`Agent: …`], `Args: …`, [`Reason: …`] as plain text: the fields of every layout's plain form. */
export function plainCardFields(card: ApprovalCard, copy: CardCopy): string[] {
  const same = (s: string) => s;
  const reasons = cardReasons(card, copy);
  return [
    `${copy.format('approval-tool-label')}: ${card.tool}`,
    ...(card.agent
      ? [`${copy.format('approval-agent-label')}: ${cardAgentValue(card, copy, same, same)}`]
      : []),
    `${copy.format('approval-args-label')}: ${cardArgs(card, copy)}`,
    ...(reasons === null ? [] : [`${copy.format('approval-reason-label')}: ${reasons}`]),
  ];
}

/** The same text with `&`, `<` and `>` escaped: what both HTML-like and mrkdwn-like markups need. */
export const escapeAngles = (s: string): string =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
