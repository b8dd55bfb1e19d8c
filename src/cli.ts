#!/usr/bin/env node
// The `baton` command: parses arguments and runs one role or tool.
import { parseArgs } from 'node:util';
import { agentCommand, type CommandIo } from './cli/agent-command.ts';
import { approvalsCommand } from './cli/approvals-command.ts';
import { reloadCommand } from './cli/reload-command.ts';
import { addWebUserCommand, secretFromStdin } from './cli/web-user-command.ts';
import { configCheck, resolveConfigPath } from './config/index.ts';
import { runRole } from './roles/role-process.ts';

const USAGE = `Usage: baton <command> [options]

Commands:
  start                                       gateway + worker in one process (what npm start runs)
  gateway                                     channel adapters and the HTTP API
  worker                                      agent turns (run as many as Redis serves)
  agent -a <alias> -m <text> [-s <session>]   run one turn of an agent and print its answer
  config check                                load and validate the config, print every problem
  reload                                      every process of the deployment reloads its config file
  approvals list [--audit] [-n <count>]       pending approvals (--audit: settled ones, last 7 days)
  web add-user <login> [--operator]           add a dashboard/web chat user to the config (secret from stdin,
                                              else generated and printed once)

Options:
  -c, --config <path>   config file (default: $BATON_CONFIG, else ./baton.toml)
  -h, --help            show this help`;

async function main(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string', short: 'c' },
      agent: { type: 'string', short: 'a' },
      message: { type: 'string', short: 'm' },
      session: { type: 'string', short: 's' },
      help: { type: 'boolean', short: 'h' },
      audit: { type: 'boolean' },
      limit: { type: 'string', short: 'n' },
      operator: { type: 'boolean' },
    },
  });
  const [command, sub] = positionals;
  if (values.help || !command) {
    io.out(USAGE);
    return command || values.help ? 0 : 2;
  }
  const configPath = resolveConfigPath(values.config, io.env);
  if (command === 'config' && sub === 'check') return configCheck(configPath, io.env, io.out);
  if (command === 'reload') return reloadCommand({ configPath }, io);
  if (command === 'start' || command === 'gateway' || command === 'worker') {
    return runRole(command, configPath, io);
  }
  if (command === 'approvals' && sub === 'list') {
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      io.err('error: -n <count> must be an integer from 1 to 1000');
      return 2;
    }
    return approvalsCommand({ configPath, audit: values.audit === true, limit }, io);
  }
  if (command === 'web' && sub === 'add-user') {
    const login = positionals[2];
    return addWebUserCommand(
      { configPath, login, operator: values.operator === true, readSecret: secretFromStdin },
      io,
    );
  }
  if (command === 'agent') {
    if (!values.agent || values.message === undefined) {
      io.err('error: baton agent needs -a <alias> and -m <text>');
      return 2;
    }
    return agentCommand(
      {
        configPath,
        agent: values.agent,
        message: values.message,
        ...(values.session ? { session: values.session } : {}),
      },
      io,
    );
  }
  io.err(`error: unknown command '${[command, sub].filter(Boolean).join(' ')}'\n\n${USAGE}`);
  return 2;
}

const io: CommandIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
};

main(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
    // Everything is closed by now; a handle some library failed to release must not keep the process up.
    setTimeout(() => process.exit(code), 2000).unref();
  },
  (err: unknown) => {
    io.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 2;
  },
);
