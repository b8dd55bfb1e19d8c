// Bolt and the Socket Mode client log through this bridge into baton's pino logger (redaction included).
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../src/core/logger.ts';

const text = (msg: unknown[]) =>
  msg.map((m) => (m instanceof Error ? m.message : typeof m === 'string' ? m : JSON.stringify(m))).join(' ');

export function boltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ lib: 'bolt' });
  let level = LogLevel.INFO;
  return {
    // Bolt's debug dumps every request and frame: trace, so baton's own debug lines stay readable.
    debug: (...msg) => log.trace(text(msg)),
    info: (...msg) => log.info(text(msg)),
    warn: (...msg) => log.warn(text(msg)),
    error: (...msg) => log.error(text(msg)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
