// Where cron_add may post: the authority a model has over recipients (a chat the bot is in is not enough).
import type { Recipient } from '../../channel-host/types.ts';
import { agentOf, cronJobOf } from '../../config/lookup.ts';
import type { BatonConfig } from '../../config/types.ts';

/**
 * The chats the config declares for `agentAlias`: the `delivery` of every `[cron.<j>]` the agent lists in
 * `cron_jobs` (the operator already sends this agent's output there). The approval route's ops room is not one:
 * its messages are approval cards, and model text posted there could pass for one.
 */
export function declaredDeliveryChats(config: BatonConfig, agentAlias: string): Recipient[] {
  const agent = agentOf(config, agentAlias);
  if (!agent) return [];
  const out: Recipient[] = [];
  for (const alias of agent.cron_jobs) {
    const d = cronJobOf(config, alias)?.delivery;
    if (d && !out.some((r) => r.channel === d.channel && r.chat === d.recipient)) {
      out.push({ channel: d.channel, chat: d.recipient });
    }
  }
  return out;
}

/**
 * The rule of cron_add (an allowlist): a delivery may name the chat the turn came from, or a chat the config
 * declares for the agent (declaredDeliveryChats). A thread of an allowed chat is allowed: it has the same members.
 * Any other chat is refused, even on the agent's own channel, since the bot may sit in chats whose members never
 * talked to this agent. A run with no originating chat (a cron run, the one-shot CLI) has only the declared chats.
 */
export function allowedDeliveryChats(
  config: BatonConfig,
  agentAlias: string,
  origin: Recipient | undefined,
): Recipient[] {
  const declared = declaredDeliveryChats(config, agentAlias);
  if (!origin) return declared;
  const fromOrigin = { channel: origin.channel, chat: origin.chat };
  return [fromOrigin, ...declared.filter((r) => r.channel !== origin.channel || r.chat !== origin.chat)];
}

export function isAllowedDelivery(allowed: readonly Recipient[], to: Recipient): boolean {
  return allowed.some((r) => r.channel === to.channel && r.chat === to.chat);
}
