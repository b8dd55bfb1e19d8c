// What wakes a pushed dashboard page: the dashboard change messages (src/core/dashboard-changes.ts) of its topics,
// or any flush of run events (the cost page: every model response is priced then).
import { type DashboardChange, dashboardChannel, parseChange } from '../../core/dashboard-changes.ts';
import type { LiveSubscriber } from '../../live/live-subscriber.ts';
import { runEventChannels } from '../../live/run-event-log.ts';

export function onDashboardChange(
  subscriber: LiveSubscriber,
  prefix: string,
  wanted: (change: DashboardChange) => boolean,
  wake: () => void,
): Promise<() => void> {
  return subscriber.listen(dashboardChannel(prefix), (message) => {
    const change = parseChange(message);
    if (change && wanted(change)) wake();
  });
}

export const onRunEventFlush = (subscriber: LiveSubscriber, prefix: string, wake: () => void) =>
  subscriber.listen(runEventChannels(prefix).channel, () => wake());
