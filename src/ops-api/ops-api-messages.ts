// Every text the ops API returns in an error body or a healthz problem, in one place.

export const UNAUTHORIZED = 'unauthorized';
export const tooManyBearerFailures = (retryAfterSecs: number) =>
  `too many failed bearer token attempts from this address; retry after ${retryAfterSecs} s`;
export const INTERNAL_ERROR = 'internal error';
export const INVALID_JSON = 'invalid JSON body';
/** A request path that cannot be percent-decoded (malformed escapes or UTF-8). */
export const BAD_PATH = 'malformed request path';
/** An open (loopback, no api_token) gateway addressed by another name: a DNS rebinding attempt, or set api_token. */
export const FOREIGN_HOST =
  'this gateway has no api_token, so it answers only requests addressed to localhost or its configured host';

/** A request through a proxy reached a gateway without api_token (a proxy makes every request look local). */
export const FORWARDED_WITHOUT_TOKEN =
  'this gateway has no api_token, so it refuses requests that came through a proxy; set [gateway] api_token and trusted_proxies';

export const noRunningTurn = (sessionId: string) => `no running turn for session '${sessionId}'`;
/** GET /api/runs/:id/tree for a run with no stored events (unknown, or its tree expired after an hour). */
export const noRunTree = (runId: string) => `no live execution tree for run '${runId}'`;
export const noRoute = (method: string, path: string) => `no route for ${method} ${path}`;
export const bodyTooLarge = (limit: number) => `request body too large (limit ${limit} bytes)`;
export const badQuery = (name: string, reason: string) => `invalid query parameter '${name}': ${reason}`;

export const redisUnreachable = (reason: string) => `redis unreachable: ${reason}`;
export const queueStatsUnavailable = (reason: string) => `queue stats unavailable: ${reason}`;
export const channelStatesUnavailable = (reason: string) => `channel states unavailable: ${reason}`;
export const workerStatesUnavailable = (reason: string) => `worker states unavailable: ${reason}`;
export const sandboxRequired = (workerId: string, profile: string, state: string) =>
  `worker '${workerId}': risk profile '${profile}' requires the shell sandbox, which is ${state}`;
export const channelDown = (key: string) => `channel '${key}' is down`;
export const sectionDropped = (section: string) => `config section '${section}' dropped`;
export const configErrorCount = (n: number) => `${n} config error${n === 1 ? '' : 's'}`;
