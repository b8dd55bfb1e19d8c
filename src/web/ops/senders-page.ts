// /ui/senders: the senders whose messages were refused (no peer group admits them), most recent first, each with
// the exact [peer_groups] entry that would admit them and an Admit button (the dashboard's pairing step).
import { type Admission, admissionFor, admissionToml } from '../../channel-host/admission.ts';
import type { BatonConfig } from '../../config/types.ts';
import type { RefusedSender } from '../../fleet/refused-senders.ts';
import { type Html, html } from '../html.ts';
import { ADMIT_LABEL, admitConfirm, NO_REFUSED, REFUSED_NOTE } from './ops-page-messages.ts';

export const SENDERS_SHOWN = 100;

const iso = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

/** The admission for a refused sender under the config in effect now (the page and the Admit route agree). */
export function admissionOf(config: BatonConfig, s: RefusedSender): Admission {
  return admissionFor(config, s.channel, s.agent, s.user_id);
}

function row(config: BatonConfig, s: RefusedSender, canAdmit: boolean): Html {
  const a = admissionOf(config, s);
  const body = JSON.stringify({ channel: s.channel, user_id: s.user_id });
  return html`<tr class="refused" data-channel="${s.channel}" data-user="${s.user_id}">
<td><time datetime="${new Date(s.last_refused_at).toISOString()}">${iso(s.last_refused_at)} UTC</time></td>
<td class="channel">${s.channel}</td><td class="agent">${s.agent}</td>
<td class="user"><code>${s.user_id}</code>${s.username ? html` <span class="muted">@${s.username.replace(/^@/, '')}</span>` : ''}</td>
<td class="chat">${s.is_direct ? 'direct' : s.chat}</td>
<td><pre class="entry">${admissionToml(a)}</pre></td>
<td>${
    canAdmit
      ? html`<button type="button" data-post="/ui/senders/admit" data-body="${body}" data-confirm="${admitConfirm(s.user_id, s.channel, a.group)}">${ADMIT_LABEL}</button>`
      : ''
  }</td>
</tr>`;
}

/** The live fragment. `canAdmit`: the config file is known here, so Admit can edit it. */
export function sendersFragment(
  config: BatonConfig,
  senders: readonly RefusedSender[],
  canAdmit: boolean,
): Html {
  if (senders.length === 0) return html`<p class="muted">${NO_REFUSED}</p>`;
  return html`<p class="muted">${REFUSED_NOTE}</p>
<table class="refused-senders"><thead><tr><th>Last refused</th><th>Channel</th><th>Agent</th><th>User id</th>
<th>Chat</th><th>Entry that admits them</th><th></th></tr></thead>
<tbody>${senders.map((s) => row(config, s, canAdmit))}</tbody></table>`;
}
