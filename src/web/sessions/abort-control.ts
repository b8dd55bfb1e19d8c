// The turn state of one conversation and its Abort button; sessions.js keeps both current and asks to confirm.
import { type Html, html } from '../html.ts';
import * as m from './session-page-messages.ts';

export function turnControl(conversation: string, running: boolean, abortUrl: string): Html {
  return html`<span class="turn" data-conversation="${conversation}" data-running="${running ? '1' : '0'}"
 data-label-running="${m.STATE_RUNNING}" data-label-idle="${m.STATE_IDLE}" data-label-aborted="${m.STATE_ABORTED}"><span
 class="state">${running ? m.STATE_RUNNING : m.STATE_IDLE}</span> <button type="button" class="danger abort" data-abort="${abortUrl}"
 data-confirm="${m.ABORT_CONFIRM}" data-failed="${m.ABORT_FAILED}"${running ? '' : html` hidden`}>${m.ABORT}</button> <span
 class="outcome" role="status"></span></span>`;
}
