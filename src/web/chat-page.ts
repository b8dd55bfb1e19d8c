// The web chat page (GET /chat/<alias>): a server-rendered shell; chat.js fills the list from the live feed.
import type { WebUser } from './auth.ts';
import {
  CHAT_CONNECTION_LOST,
  CHAT_EMPTY,
  CHAT_INPUT_LABEL,
  CHAT_INPUT_PLACEHOLDER,
  CHAT_SEND,
  CHAT_SIGNED_IN_AS,
  CHAT_TYPING,
} from './chat-messages.ts';
import { html } from './html.ts';
import { page } from './page.ts';

export function chatPage(opts: { alias: string; title: string; user: WebUser }): string {
  const { alias, title, user } = opts;
  return page({
    title,
    user: { peerId: user.peerId, csrf: user.csrf, local: user.local },
    scripts: ['chat.js'],
    body: html`<section class="chat" id="chat" data-alias="${alias}">
<h1>${title}</h1>
<p class="muted">${CHAT_SIGNED_IN_AS} ${user.peerId}</p>
<p class="muted" id="chat-empty">${CHAT_EMPTY}</p>
<ol class="messages" id="messages" aria-live="polite"></ol>
<p class="typing" id="typing" hidden>${CHAT_TYPING}</p>
<p class="error" id="chat-error" role="alert" hidden></p>
<p class="muted" id="chat-offline" hidden>${CHAT_CONNECTION_LOST}</p>
<form class="composer" id="composer">
<label class="visually-hidden" for="chat-input">${CHAT_INPUT_LABEL}</label>
<textarea id="chat-input" name="text" rows="2" placeholder="${CHAT_INPUT_PLACEHOLDER}" required></textarea>
<button type="submit">${CHAT_SEND}</button>
</form>
</section>`,
  });
}
