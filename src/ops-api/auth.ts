// Bearer-token check of the ops API ([gateway] api_token); /healthz and /metrics stay open (config.md §15.2).
import { sameSecret } from '../core/secret-compare.ts';

/** Paths served without a token. Anything else needs one whenever api_token is set (fail closed). */
export const OPEN_PATHS: ReadonlySet<string> = new Set(['/healthz', '/metrics']);

export function isOpenPath(url: string): boolean {
  return OPEN_PATHS.has(pathOf(url));
}

/**
 * The path the router matches for a request URL (find-my-way): cut at `?` or `#`, percent-escapes decoded as
 * `decodeURI` does (reserved ones such as `%2F` stay encoded, `%25` stays `%25`). Null when it cannot be decoded.
 * Every auth decision is made on this path: deciding on the raw URL let `/%75i/tasks` skip the browser hook.
 */
export function routePath(url: string): string | null {
  const cut = url.search(/[?#]/);
  const raw = cut === -1 ? url : url.slice(0, cut);
  if (!raw.includes('%')) return raw;
  try {
    return decodeURI(raw.replaceAll('%25', '%2525'));
  } catch {
    return null;
  }
}

/** The routed path of a request URL (the raw path, for logs, when it cannot be decoded). */
export const pathOf = (url: string): string => routePath(url) ?? url.split(/[?#]/, 1)[0] ?? url;

/**
 * Browser paths: guarded by the session cookie of src/web/auth.ts instead of the bearer token (the ops API's
 * /api/* keeps the bearer).
 */
export function isBrowserPath(url: string): boolean {
  const p = pathOf(url);
  return (
    p === '/' ||
    p === '/login' ||
    p === '/logout' ||
    p === '/ui' ||
    p.startsWith('/ui/') ||
    p === '/chat' ||
    p.startsWith('/chat/')
  );
}

/** Static files of the browser pages: open to everyone (they hold no data). */
export const isAssetPath = (url: string) => pathOf(url).startsWith('/assets/');

/** True when `authorization` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return sameSecret(m?.[1], token);
}
