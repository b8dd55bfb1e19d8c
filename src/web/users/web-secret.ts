// Web users' secrets: scrypt hashes as written in `[gateway.web_users.<login>] secret_hash` (node:crypto only, no
// native module), checked in constant time; an unknown login still costs one hash, so timing names no user.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { SECRET_HASH_RE } from '../../config/secret-hash-form.ts';

const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
/** Fewer characters than this is a guessable secret; `baton web add-user` refuses it. */
export const MIN_SECRET_CHARS = 12;

function derive(secret: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** logN, r, p, maxmem: 256 * 2 ** logN * r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFC'), salt, KEY_BYTES, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `logN` 15 (32 MiB, tens of ms on a server core); tests may pass 14, the lowest the config accepts. */
export async function hashWebSecret(secret: string, logN = LOG_N): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, logN, R, P);
  return `scrypt$${logN}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash of nothing, compared against when the login is unknown (same cost as a real check). */
let decoy: Promise<string> | undefined;
const decoyHash = () => {
  decoy ??= hashWebSecret('');
  return decoy;
};

/** True when `secret` matches `stored`; `stored` undefined (no such user) is always false, after the same work. */
export async function verifyWebSecret(secret: string, stored: string | undefined): Promise<boolean> {
  const hash = stored !== undefined && SECRET_HASH_RE.test(stored) ? stored : await decoyHash();
  const [, logN, r, p, salt, key] = hash.split('$');
  const expected = Buffer.from(key ?? '', 'base64url');
  const got = await derive(secret, Buffer.from(salt ?? '', 'base64url'), Number(logN), Number(r), Number(p));
  return hash === stored && secret !== '' && got.length === expected.length && timingSafeEqual(got, expected);
}
