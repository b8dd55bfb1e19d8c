// The log lines of a config reload (config.md "Reload"); values are never shown, only TOML paths.

export const reloadApplied = (file: string, changed: readonly string[]): string =>
  changed.length === 0
    ? `Config reloaded from ${file}: no changes`
    : `Config reloaded from ${file}: changed ${changed.join(', ')}`;

export const reloadRejected = (file: string, errors: number): string =>
  `Config reload rejected: ${file} has ${errors} error${errors === 1 ? '' : 's'}; the running config stays`;

export const reloadRestartOnly = (path: string): string =>
  `Config reload: '${path}' changed, but a reload does not apply it; restart the process to apply it`;

// --- `baton reload` ---
export const reloadAcknowledged = (acks: number, reached: number, prefix: string): string =>
  reached === 0
    ? `No baton process is listening under redis prefix "${prefix}"; nothing was reloaded`
    : `${acks} of ${reached} process${reached === 1 ? '' : 'es'} acknowledged the reload (redis prefix "${prefix}")`;

export const ackApplied = (role: string, process: string, changed: readonly string[]): string =>
  `  ${role} ${process}: applied${changed.length ? ` (changed ${changed.join(', ')})` : ' (no changes)'}`;

export const ackRejected = (role: string, process: string, errors: number): string =>
  `  ${role} ${process}: rejected, ${errors} error${errors === 1 ? '' : 's'} in its config (see its log); the running config stays`;

export const ackRestartOnly = (paths: readonly string[]): string =>
  `    needs a restart to apply: ${paths.join(', ')}`;
