// A card whose approval expired without its waiter (the reaper's pass) still shows buttons: only the waiter edits
// cards on expiry, and it is gone. This asks the channel holder to edit it to its outcome, like the waiter would.
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../core/logger.ts';
import type { ApprovalStore } from './approval-store.ts';
import { type ApprovalDelivery, cardRecipient } from './card-delivery.ts';

export function editReapedCard(deps: {
  store: Pick<ApprovalStore, 'get'>;
  delivery: Pick<ApprovalDelivery, 'edit'>;
  logger: Pick<Logger, 'warn'>;
}): (approvalId: string) => Promise<void> {
  return async (approvalId) => {
    try {
      const rec = await deps.store.get(approvalId);
      if (!rec?.message_ref) return; // never posted: no card to edit
      await deps.delivery.edit(rec.channel, approvalId, cardRecipient(rec));
    } catch (err) {
      deps.logger.warn(
        { approval_id: approvalId, err: errorMessage(err) },
        'approval card edit request failed',
      );
    }
  };
}
