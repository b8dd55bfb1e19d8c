// The dashboard's delegation_policy save through src/fleet/config-file-edit.ts: edit, validate, write, deployment reload;
// the outcome in the words an operator reads (the loader's diagnostics verbatim, each process's reload result).

import { errorMessage } from '../../core/errors.ts';
import {
  admitExternalPeer,
  applyDelegationPolicyMode,
  type EditFileDeps,
  type EditFileResult,
} from '../../fleet/config-file-edit.ts';
import { DELEGATION_MODES } from './config-page.ts';
import { BAD_MODE, reloadFailedIn, reloadReached } from './ops-page-messages.ts';
import type { AdmitPeer, ApplyDelegationPolicyMode, PolicyEditResult } from './ops-pages-deps.ts';

export function createPolicyEditor(deps: EditFileDeps): ApplyDelegationPolicyMode {
  return async (path, profile, mode) => {
    if (mode !== 'forbidden' && mode !== 'allow')
      return { ok: false, diagnostics: [BAD_MODE(DELEGATION_MODES)] };
    return outcome(() => applyDelegationPolicyMode(path, profile, mode, deps));
  };
}

/** The dashboard's Admit of a refused sender: the same edit, validation and deployment reload. */
export function createPeerAdmitter(deps: EditFileDeps): AdmitPeer {
  return (path, admission) => outcome(() => admitExternalPeer(path, admission, deps));
}

async function outcome(run: () => Promise<EditFileResult>): Promise<PolicyEditResult> {
  try {
    const res = await run();
    if (!res.ok) return { ok: false, diagnostics: [res.error, ...res.diagnostics.map((d) => d.message)] };
    const { acks, reached } = res.reload;
    const failed = acks.filter((a) => !a.ok);
    return {
      ok: true,
      notes: [
        reloadReached(acks.length - failed.length, reached),
        ...failed.flatMap((a) => [reloadFailedIn(a.role, a.process), ...a.errors]),
      ],
    };
  } catch (err) {
    // A lock held too long or an unreadable file: the operator's next step is in the message.
    return { ok: false, diagnostics: [errorMessage(err)] };
  }
}
