// What a worker reports at startup: the probe's result and how each risk profile in use runs shell commands.
import type { BatonConfig } from '../../config/types.ts';
import { buildSecurityPolicy } from '../policy.ts';
import { sandboxLog } from '../security-messages.ts';
import { decideShellMode, type ShellMode, type ShellSandbox } from './shell-sandbox.ts';

export interface SandboxReport {
  /** `sandboxed (bubblewrap)` or `unavailable: <reason>`. */
  sandbox: string;
  /** Risk profile name → how its shell commands run here. */
  shell: Record<string, ShellMode>;
  /** Log lines: one info line always, one warning when auto profiles run unsandboxed, one error when refused. */
  lines: { level: 'info' | 'warn' | 'error'; text: string }[];
}

/** Probes once (cached for the process) and resolves every risk profile that an enabled agent uses. */
export async function sandboxReport(config: BatonConfig, box: ShellSandbox): Promise<SandboxReport> {
  const probe = await box.probe();
  const reason = probe.ok ? '' : probe.reason;
  const shell: Record<string, ShellMode> = {};
  const byMode: Record<ShellMode, string[]> = { sandboxed: [], unsandboxed: [], off: [], refused: [] };
  const reasons = new Map<string, string>();
  for (const agent of Object.values(config.agents)) {
    if (!agent.enabled || Object.hasOwn(shell, agent.risk_profile)) continue;
    if (!Object.hasOwn(config.risk_profiles, agent.risk_profile)) continue;
    const decision = decideShellMode(buildSecurityPolicy(config, agent.alias).sandbox, probe);
    shell[agent.risk_profile] = decision.mode;
    byMode[decision.mode].push(agent.risk_profile);
    if (decision.reason) reasons.set(agent.risk_profile, decision.reason);
  }
  const sandbox = sandboxLog.state(probe.ok, reason);
  const lines: SandboxReport['lines'] = [{ level: 'info', text: sandboxLog.started(sandbox) }];
  if (byMode.unsandboxed.length > 0)
    lines.push({ level: 'warn', text: sandboxLog.unsandboxed(reason, byMode.unsandboxed) });
  if (byMode.refused.length > 0) {
    // A required profile may be refused for its own reason (backend "none") on a host where bwrap works.
    const why = reasons.get(byMode.refused[0] ?? '') ?? reason;
    lines.push({ level: 'error', text: sandboxLog.refused(why, byMode.refused) });
  }
  return { sandbox, shell, lines };
}
