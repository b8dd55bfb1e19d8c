// The one accepted form of a web user's secret hash (`baton web add-user` writes it; src/web/users checks it).

/** `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, salt and hash base64url. */
export const SECRET_HASH_RE =
  /^scrypt\$(1[4-9]|20)\$([1-9]|1[0-6])\$([1-4])\$[A-Za-z0-9_-]{22,64}\$[A-Za-z0-9_-]{43}$/;

/** Web login names: letters, digits, `.`, `_`, `-`, lower case, so one person is one peer id `web:<login>`. */
export const WEB_LOGIN_RE = /^[a-z0-9][a-z0-9._-]{0,31}$/;
export const WEB_LOGIN_TEXT = '[a-z0-9][a-z0-9._-]{0,31}';
/** The api_token's one operator identity and the loopback user: never a configured user. */
export const RESERVED_WEB_LOGINS: ReadonlySet<string> = new Set(['operator', 'local']);
