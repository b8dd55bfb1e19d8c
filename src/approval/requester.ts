// Who started a run, as a routed approval records it (approvals.md §11): a run's sender is `<channel key>:<user
// id>` for a channel root turn and everything it starts; other senders (`cron:<job>`) have no requester.
import type { Requester } from './approval-store.ts';

export function requesterOfSender(sender: string): Requester | undefined {
  const at = sender.indexOf(':');
  const channel = at > 0 ? sender.slice(0, at) : '';
  const user = sender.slice(at + 1);
  return channel.includes('.') && user !== '' ? { channel, user } : undefined;
}
