// Who a signed-in browser is, from the config in effect: a configured web user, the api_token's one operator
// identity (only while no web users are configured), or the loopback `local` user.
import type { BatonConfig, WebUserEntry } from '../../config/types.ts';

/** The identity the api_token signs in (peer `web:operator`); a web user may not take this name. */
export const OPERATOR_LOGIN = 'operator';

/**
 * `users`: login + own secret; `token`: the single-operator setup, api_token signs in `operator`; `open`: no
 * token at all (a loopback bind: the silent local user).
 */
export type SignInMode = 'users' | 'token' | 'open';

export function signInMode(config: BatonConfig): SignInMode {
  if (Object.keys(config.gateway.web_users ?? {}).length > 0) return 'users';
  const token = config.gateway.api_token;
  return token !== undefined && token.trim() !== '' ? 'token' : 'open';
}

export function webUserEntry(config: BatonConfig, login: string): WebUserEntry | undefined {
  const users = config.gateway.web_users ?? {};
  return Object.hasOwn(users, login) ? users[login] : undefined;
}

/** How a session was signed in: decides, per request, whether it still stands. */
export type SessionVia = 'user' | 'token';

/**
 * The session's standing under the config now: undefined when it no longer stands (the user was removed, or the
 * deployment moved between token and per-user sign-in), else whether it is an operator.
 */
export function standing(
  config: BatonConfig,
  login: string,
  via: SessionVia,
): { operator: boolean } | undefined {
  const mode = signInMode(config);
  if (via === 'token') return mode === 'token' && login === OPERATOR_LOGIN ? { operator: true } : undefined;
  const entry = mode === 'users' ? webUserEntry(config, login) : undefined;
  return entry ? { operator: entry.operator } : undefined;
}
