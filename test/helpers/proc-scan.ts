// Which processes are alive, read from /proc (Linux): by a marker on the command line or by process group.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcInfo {
  pid: number;
  pgrp: number;
  state: string;
  cmdline: string;
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself contain spaces.
    const [state = '', , pgrp = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, pgrp: Number(pgrp), state, cmdline };
  } catch {
    return null; // exited between the listing and the read
  }
}

/** Live processes (zombies excluded: they hold no resources and wait only for their parent). */
export function liveProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProc(Number(name));
    if (info && info.state !== 'Z') out.push(info);
  }
  return out;
}

export function processesWith(marker: string, pgrp?: number): ProcInfo[] {
  return liveProcesses().filter(
    (p) => p.pid !== process.pid && (p.cmdline.includes(marker) || (pgrp !== undefined && p.pgrp === pgrp)),
  );
}
