// "Required when …" rules that span several keys (spec/config.md §8.2, §10.1, §12, §15.2).
// They read the raw document rather than the zod output so that they still report when a sibling key has
// a type error: every diagnostic of every step is collected, not just the first.

import {
  API_TOKEN_REQUIRED,
  API_TOKEN_REQUIRED_BEHIND_PROXY,
  APPROVER_CHANNEL_REQUIRED,
  BOT_TOKEN_REQUIRED,
  invalid,
  ROUTE_DOWN_MODEL_REQUIRED,
  SLACK_MODE_REQUIRED,
  telegramWebhookUrl,
  WEBHOOK_SECRET_REQUIRED,
} from './config-messages.ts';
import { ownEntry } from './lookup.ts';
import { formatPath, isTable } from './toml-path.ts';
import type { Diagnostic } from './types.ts';

const blank = (value: unknown): boolean => typeof value !== 'string' || value.trim() === '';
const tableAt = (value: unknown): Record<string, unknown> => (isTable(value) ? value : {});

export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);
}

export function checkRules(doc: Record<string, unknown>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const error = (segments: PropertyKey[], reason: string): void => {
    const path = formatPath(segments);
    out.push({ severity: 'error', path, message: invalid(path, reason) });
  };

  const gateway = tableAt(doc.gateway);
  const host = typeof gateway.host === 'string' ? gateway.host : '127.0.0.1';
  if (!isLoopbackHost(host) && blank(gateway.api_token)) error(['gateway', 'api_token'], API_TOKEN_REQUIRED);
  // Behind a proxy every request arrives from the proxy's (often loopback) address: only a token tells them apart.
  else if (
    Array.isArray(gateway.trusted_proxies) &&
    gateway.trusted_proxies.length > 0 &&
    blank(gateway.api_token)
  )
    error(['gateway', 'api_token'], API_TOKEN_REQUIRED_BEHIND_PROXY);

  const enforcement = tableAt(tableAt(doc.cost).enforcement);
  if (enforcement.mode === 'route_down' && blank(enforcement.route_down_model)) {
    error(['cost', 'enforcement', 'route_down_model'], ROUTE_DOWN_MODEL_REQUIRED);
  }

  for (const [name, profile] of Object.entries(tableAt(doc.risk_profiles))) {
    const route = tableAt(profile).approval_route;
    if (isTable(route) && blank(route.approver_channel)) {
      error(['risk_profiles', name, 'approval_route', 'approver_channel'], APPROVER_CHANNEL_REQUIRED);
    }
  }

  const channels = tableAt(doc.channels);
  // The web chat needs no bot_token (§12.4): it is served by the gateway itself.
  for (const type of ['telegram', 'discord', 'slack']) {
    for (const [alias, raw] of Object.entries(tableAt(ownEntry(channels, type)))) {
      const channel = tableAt(raw);
      if (channel.enabled !== true) continue;
      if (blank(channel.bot_token)) error(['channels', type, alias, 'bot_token'], BOT_TOKEN_REQUIRED);
      if (type === 'slack' && blank(channel.app_token) && blank(channel.signing_secret)) {
        error(['channels', type, alias], SLACK_MODE_REQUIRED);
      }
      // Absent only: a value of the wrong shape already has its own error.
      if (type === 'telegram' && !blank(channel.webhook_url) && channel.webhook_secret === undefined) {
        error(['channels', type, alias, 'webhook_secret'], WEBHOOK_SECRET_REQUIRED);
      }
    }
  }
  for (const [alias, raw] of Object.entries(tableAt(ownEntry(channels, 'telegram')))) {
    const url = tableAt(raw).webhook_url;
    if (typeof url === 'string' && !webhookUrlFits(url, alias)) {
      error(['channels', 'telegram', alias, 'webhook_url'], telegramWebhookUrl(alias));
    }
  }
  return out;
}

/** An absolute http(s) URL whose path reaches the route the gateway serves for this alias. */
function webhookUrlFits(url: string, alias: string): boolean {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  return (
    (u.protocol === 'https:' || u.protocol === 'http:') && u.pathname.endsWith(`/telegram/${alias}/webhook`)
  );
}
