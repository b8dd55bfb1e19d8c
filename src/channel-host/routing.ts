// Which agent answers a channel's messages (routing is outside the spec; this is baton's rule).
import type { BatonConfig } from '../config/types.ts';

/**
 * The first enabled agent, by alias, that lists the channel in `channels`. When no agent declares
 * channels at all, every enabled channel starts (config.md §12), and the first enabled agent answers.
 */
export function routeAgent(config: BatonConfig, channelKey: string): string | null {
  const enabled = Object.values(config.agents)
    .filter((a) => a.enabled)
    .sort((a, b) => (a.alias < b.alias ? -1 : 1));
  const listing = enabled.find((a) => a.channels.includes(channelKey));
  if (listing) return listing.alias;
  const anyDeclares = Object.values(config.agents).some((a) => a.channels.length > 0);
  return anyDeclares ? null : (enabled[0]?.alias ?? null);
}
