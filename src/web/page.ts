// The shell every browser page shares: head (CSP-friendly: scripts only from /assets), header, nav, body.
import { SIGN_OUT } from './auth-messages.ts';
import { type Html, html } from './html.ts';

export interface PageUser {
  /** `web:<login>`, shown in the header. */
  peerId: string;
  /** The session's CSRF token, read by the page scripts from <meta name="csrf-token"> for every write. */
  csrf: string;
  /** The silent loopback user: no Sign out button (the next page would sign it in again). */
  local: boolean;
}

/** Served by src/web/assets-route.ts: the header's Sign out button. */
export const HEADER_SCRIPT = 'header.js';

export interface PageOptions {
  title: string;
  user: PageUser | null;
  body: Html;
  /** Module scripts under /assets (e.g. `ops.js`); never inline. */
  scripts?: readonly string[];
  /** The nav entry to mark as current (its href). */
  current?: string;
}

/** Dashboard sections; the web chats are linked from the sessions page. */
export const NAV: readonly { href: string; label: string }[] = [
  { href: '/', label: 'Sessions' },
  { href: '/ui/tasks', label: 'Background tasks' },
  { href: '/ui/approvals', label: 'Approvals' },
  { href: '/ui/cost', label: 'Cost' },
  { href: '/ui/config', label: 'Config' },
  { href: '/ui/senders', label: 'Refused senders' },
];

export function page(opts: PageOptions): string {
  const nav = NAV.map(
    (n) =>
      html`<a href="${n.href}"${n.href === opts.current ? html` aria-current="page"` : ''}>${n.label}</a>`,
  );
  const signOut = opts.user !== null && !opts.user.local;
  const scripts = [...(signOut ? [HEADER_SCRIPT] : []), ...(opts.scripts ?? [])];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · baton</title>
${opts.user ? html`<meta name="csrf-token" content="${opts.user.csrf}">` : ''}
<link rel="stylesheet" href="/assets/baton.css">
${scripts.map((s) => html`<script type="module" src="/assets/${s}"></script>`)}
</head>
<body>
<header class="top"><strong>baton</strong><nav>${nav}</nav>${
    opts.user ? html`<span class="who">${opts.user.peerId}</span>` : ''
  }${signOut ? html`<button type="button" class="sign-out" id="sign-out">${SIGN_OUT}</button>` : ''}</header>
<main>${opts.body}</main>
</body>
</html>
`.value;
}

/** Security headers for every page: no inline script, no framing, no sniffing, same-origin everything. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};
