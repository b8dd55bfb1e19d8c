// Who may use each route of the gateway's HTTP server: the table the README shows (section "Who may use what")
// and test/integration/web/route-access.test.ts walks. A route not listed here fails that test.

/**
 * `anyone`: no sign-in. `signed-in`: any web session (lists show only what the user may see). `agent`: a user a
 * web peer group names for the agent concerned (`approvers`, else `external_peers`), or the owner of that web chat
 * conversation, or an operator. `operator`: the local user, the api_token operator, `operator = true` users.
 * `bearer`: `Authorization: Bearer <api_token>` (open on a loopback bind without api_token). `platform`: the
 * platform's own signature.
 */
export type Access = 'anyone' | 'signed-in' | 'agent' | 'operator' | 'bearer' | 'platform';

export interface RouteAccess {
  method: 'GET' | 'POST';
  path: string;
  access: Access;
  note: string;
}

const live = (path: string, access: Access, what: string): RouteAccess[] => [
  { method: 'GET', path, access, note: what },
  { method: 'GET', path: `${path}/fragment`, access, note: "the page's live part, as HTML" },
  { method: 'GET', path: `${path}/stream`, access, note: 'the same, pushed (SSE) or once as JSON' },
];

export const ROUTE_ACCESS: readonly RouteAccess[] = [
  { method: 'GET', path: '/login', access: 'anyone', note: 'sign-in form' },
  { method: 'POST', path: '/login', access: 'anyone', note: 'limited per address and per login' },
  { method: 'POST', path: '/logout', access: 'signed-in', note: 'ends the own session' },
  { method: 'GET', path: '/', access: 'signed-in', note: 'sessions list: only sessions the user may see' },
  { method: 'GET', path: '/ui/sessions/stream', access: 'signed-in', note: 'the same list, pushed' },
  { method: 'GET', path: '/ui/sessions/:agent/:session', access: 'agent', note: 'transcript and live tree' },
  {
    method: 'GET',
    path: '/ui/sessions/:agent/:session/stream',
    access: 'agent',
    note: 'its live tree, pushed',
  },
  {
    method: 'POST',
    path: '/ui/sessions/:agent/:session/abort',
    access: 'agent',
    note: 'aborts its running turn',
  },
  ...live('/ui/tasks', 'signed-in', "background tasks: only those of the user's agents"),
  {
    method: 'POST',
    path: '/ui/tasks/:id/cancel',
    access: 'agent',
    note: "the task's agent or one of its chain",
  },
  ...live('/ui/approvals', 'signed-in', "approvals, read-only: only those of the user's agents"),
  ...live('/ui/cost', 'operator', 'deployment spend against the limits'),
  ...live('/ui/senders', 'operator', 'senders refused recently, with Admit'),
  {
    method: 'POST',
    path: '/ui/senders/admit',
    access: 'operator',
    note: 'adds a refused sender to a peer group in the config file, then reloads',
  },
  { method: 'GET', path: '/ui/config', access: 'operator', note: 'the config, secrets redacted' },
  {
    method: 'POST',
    path: '/ui/config/risk-profiles/:profile/delegation-policy',
    access: 'operator',
    note: 'edits the config file, then reloads',
  },
  { method: 'GET', path: '/chat/:alias', access: 'signed-in', note: 'web chat page' },
  {
    method: 'GET',
    path: '/chat/:alias/events',
    access: 'signed-in',
    note: "the own browser session's chat only",
  },
  {
    method: 'POST',
    path: '/chat/:alias/messages',
    access: 'signed-in',
    note: 'reaches an agent only when a peer group names the user (`external_peers`)',
  },
  {
    method: 'POST',
    path: '/chat/:alias/uploads',
    access: 'signed-in',
    note: 'a file for the own chat: read up to `max_attachment_mb` (413 past it), 10 unsent per user',
  },
  {
    method: 'GET',
    path: '/chat/:alias/files/:id',
    access: 'signed-in',
    note: 'a file the agent sent to the own chat (404 for any other), always as a download',
  },
  {
    method: 'POST',
    path: '/chat/:alias/actions',
    access: 'signed-in',
    note: 'buttons of the own chat; an approval by approvals.md §11',
  },
  { method: 'GET', path: '/assets/*', access: 'anyone', note: 'static scripts and styles' },
  { method: 'GET', path: '/healthz', access: 'anyone', note: 'status only; details for the bearer' },
  { method: 'GET', path: '/metrics', access: 'bearer', note: 'open with `health_detail = "public"`' },
  { method: 'POST', path: '/api/sessions/:id/abort', access: 'bearer', note: '' },
  { method: 'GET', path: '/api/runs/:id/tree', access: 'bearer', note: '' },
  { method: 'GET', path: '/api/runs/:id/events', access: 'bearer', note: '' },
  { method: 'GET', path: '/api/sessions/:id/tree', access: 'bearer', note: '' },
  { method: 'GET', path: '/api/sessions/:id/tree/events', access: 'bearer', note: '' },
  { method: 'GET', path: '/api/tasks', access: 'bearer', note: '' },
  { method: 'GET', path: '/api/approvals', access: 'bearer', note: '' },
  { method: 'GET', path: '/api/approvals/audit', access: 'bearer', note: '' },
  { method: 'POST', path: '/slack/:alias/events', access: 'platform', note: 'Slack HTTP mode' },
  { method: 'POST', path: '/telegram/:alias/webhook', access: 'platform', note: 'Telegram webhook mode' },
];

/** The README's table rows, in this order. */
export function routeAccessMarkdown(): string[] {
  return ROUTE_ACCESS.map((r) => `| \`${r.method} ${r.path}\` | ${r.access} | ${r.note} |`);
}
