// DNS rebinding guard for an open (loopback, no api_token) gateway: a page on another site can make its own name
// resolve to 127.0.0.1 and then talk to baton as "same origin". Its requests still carry that name in Host, so an
// open gateway answers only requests addressed to a loopback name or to its configured host.

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The host name of a Host header (`name[:port]`, `[v6]:port`), lower-cased; undefined when it is not one. */
export function hostName(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const url = URL.canParse(`http://${header}/`) ? new URL(`http://${header}/`) : undefined;
  return url && url.username === '' && url.pathname === '/' ? url.hostname.toLowerCase() : undefined;
}

/** True when an open gateway may answer a request with this Host header (a list of known-good names). */
export function isLocalHostHeader(header: string | undefined, configuredHost: string): boolean {
  const name = hostName(header);
  if (name === undefined) return false;
  const configured = hostName(
    configuredHost.includes(':') && !configuredHost.startsWith('[') ? `[${configuredHost}]` : configuredHost,
  );
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || name === configured;
}

/** Headers a reverse proxy adds: their presence means the request did not come from this machine's browser. */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
];

export function isForwarded(headers: Record<string, string | string[] | undefined>): boolean {
  return FORWARDING_HEADERS.some((h) => headers[h] !== undefined);
}
