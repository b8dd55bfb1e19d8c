// Approval prompt copy (approvals.md §12.1): catalog texts with their fixed emoji prefixes.
import type { ApprovalAction } from '../channel-host/approval-card.ts';
import { type Catalog, defaultCatalog } from '../i18n/catalog.ts';

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
