// The web chat page (GET /chat/<alias>): a server-rendered shell; chat.js fills the list from the live feed.
import type { WebUser } from './auth.ts';
import {
  CHAT_ATTACH,
  CHAT_CONNECTION_LOST,
  CHAT_EMPTY,
  CHAT_INPUT_LABEL,
  CHAT_INPUT_PLACEHOLDER,
  CHAT_REMOVE_FILE,
  CHAT_SEND,
  CHAT_SIGNED_IN_AS,
  CHAT_TYPING,
  CHAT_UPLOAD_FAILED,
  CHAT_UPLOAD_READY,
  CHAT_UPLOADING,
  CHAT_WAIT_FOR_UPLOADS,
} from './chat-messages.ts';
import { html, trustedHtml } from './html.ts';
import { page } from './page.ts';

/** The attach button's icon: inline SVG (no emoji font needed, nothing loaded, nothing for the CSP to allow). */
const PAPERCLIP = trustedHtml(
  '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path fill="none" ' +
    'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" d="M21.4 11.1l-9.2 ' +
    '9.2a6 6 0 0 1-8.5-8.5l9.2-9.2a4 4 0 0 1 5.7 5.7l-9.2 9.2a2 2 0 0 1-2.8-2.8l8.5-8.5"/></svg>',
);

export function chatPage(opts: { alias: string; title: string; user: WebUser }): string {
  const { alias, title, user } = opts;
  return page({
    title,
    user: { peerId: user.peerId, csrf: user.csrf, local: user.local },
    scripts: ['chat.js'],
    // The script's own texts ride on data attributes (no inline script; every text from chat-messages.ts).
    body: html`<section class="chat" id="chat" data-alias="${alias}" data-uploading="${CHAT_UPLOADING}"
data-ready="${CHAT_UPLOAD_READY}" data-remove="${CHAT_REMOVE_FILE}" data-upload-failed="${CHAT_UPLOAD_FAILED}"
data-wait="${CHAT_WAIT_FOR_UPLOADS}">
<h1>${title}</h1>
<p class="muted">${CHAT_SIGNED_IN_AS} ${user.peerId}</p>
<p class="muted" id="chat-empty">${CHAT_EMPTY}</p>
<ol class="messages" id="messages" aria-live="polite"></ol>
<p class="typing" id="typing" hidden>${CHAT_TYPING}</p>
<p class="error" id="chat-error" role="alert" hidden></p>
<p class="muted" id="chat-offline" hidden>${CHAT_CONNECTION_LOST}</p>
<ul class="pending-files" id="chat-files" aria-live="polite"></ul>
<form class="composer" id="composer">
<input type="file" id="chat-file" multiple hidden>
<button type="button" class="attach" id="chat-attach" aria-label="${CHAT_ATTACH}" title="${CHAT_ATTACH}">${PAPERCLIP}</button>
<label class="visually-hidden" for="chat-input">${CHAT_INPUT_LABEL}</label>
<textarea id="chat-input" name="text" rows="2" placeholder="${CHAT_INPUT_PLACEHOLDER}"></textarea>
<button type="submit">${CHAT_SEND}</button>
</form>
</section>`,
  });
}
