// Approval prompt copy (approvals.md §12.1): catalog texts with their fixed emoji prefixes.
import { type Catalog, type CatalogArgs, defaultCatalog } from '../i18n/catalog.ts';
import type { ApprovalAction } from './button-ids.ts';

/** The ack a press or reply gets (§12.1): `✅ Approved`, `✅✅ Always approved`, `❌ Denied`, `⚠️ Unknown action`. */
export function approvalAck(action: ApprovalAction | 'unknown', catalog: Catalog = defaultCatalog()): string {
  switch (action) {
    case 'approve':
      return `✅ ${catalog.format('approval-ack-approved')}`;
    case 'always':
      return `✅✅ ${catalog.format('approval-ack-always')}`;
    case 'deny':
      return `❌ ${catalog.format('approval-ack-denied')}`;
    default:
      return `⚠️ ${catalog.format('approval-ack-unknown')}`;
  }
}

/**
 * Formats `key` with its arguments already in a markup (Telegram HTML, Slack mrkdwn): the catalog's own text is
 * escaped with `escapeText`, the arguments are inserted as given. A translation can then hold any character.
 */
export function formatMarkup(
  catalog: Catalog,
  key: string,
  markupArgs: CatalogArgs,
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
