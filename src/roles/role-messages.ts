// Operator-visible lines a long-running role prints about process signals and shutdown.

export const shuttingDown = (signal: string, graceSecs: number): string =>
  `baton: shutting down on ${signal} (running turns get up to ${graceSecs} s)`;

export const alreadyStopping = (signal: string): string =>
  `baton: ${signal} received while already shutting down; still waiting for running turns (SIGKILL stops now)`;

export const reloadWhileStarting = (signal: string): string =>
  `baton: ${signal} received while starting; the config being loaded now is the one that runs`;

export const reloadRequested = (signal: string, path: string): string =>
  `baton: ${signal} received; reloading the config from ${path}`;

export const stopped = 'baton: stopped';

/** The web chat's address, printed at startup so a fresh clone knows where to go. */
export const openWebChat = (url: string): string => `open ${url} to chat`;
