// `baton web add-user <login> [--operator]`: hashes a secret (read from stdin, or generated and printed once) and
// adds `[gateway.web_users.<login>]` to the config file; `baton reload` then lets the user sign in.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { RESERVED_WEB_LOGINS, WEB_LOGIN_RE, WEB_LOGIN_TEXT } from '../config/secret-hash-form.ts';
import { addWebUserEntry } from '../config/toml-add-web-user.ts';
import { withLock, writeAtomically } from '../fleet/config-file-edit.ts';
import { hashWebSecret, MIN_SECRET_CHARS } from '../web/users/web-secret.ts';
import type { CommandIo } from './agent-command.ts';

export interface AddWebUserArgs {
  configPath: string;
  login: string | undefined;
  operator: boolean;
  /** The secret piped on stdin (first line), or undefined at a terminal: one is then generated and printed. */
  readSecret: () => Promise<string | undefined>;
}

export async function addWebUserCommand(args: AddWebUserArgs, io: CommandIo): Promise<number> {
  const login = args.login?.trim() ?? '';
  if (!WEB_LOGIN_RE.test(login) || RESERVED_WEB_LOGINS.has(login)) {
    io.err(`error: the login must match ${WEB_LOGIN_TEXT} and not be "operator" or "local"`);
    return 2;
  }
  const piped = await args.readSecret();
  const secret = piped ?? randomBytes(18).toString('base64url');
  if (secret.length < MIN_SECRET_CHARS) {
    io.err(`error: the secret must have at least ${MIN_SECRET_CHARS} characters`);
    return 2;
  }
  const hash = await hashWebSecret(secret);
  try {
    const result = await withLock(args.configPath, 10_000, async () => {
      const edit = addWebUserEntry(await readFile(args.configPath, 'utf8'), login, hash, args.operator);
      if (edit.ok) await writeAtomically(args.configPath, edit.text);
      return edit;
    });
    if (!result.ok) {
      io.err(`error: ${result.error}`);
      return 1;
    }
  } catch (err) {
    io.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  io.out(`added web user ${login}${args.operator ? ' (operator)' : ''} to ${args.configPath}`);
  // Printed once, here only: the file keeps the hash.
  if (piped === undefined) io.out(`secret: ${secret}`);
  io.out('run `baton reload` (or restart) so the gateways accept it');
  return 0;
}

/** The first line of stdin when it is piped; undefined at a terminal. */
export async function secretFromStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
  return line === '' ? undefined : line;
}
