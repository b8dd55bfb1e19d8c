// Shared steps of the channel-approval runtime tests: the gated tool call, the card in a local chat, presses.
import type { LocalReply } from '../../../channels/local/local-adapter.ts';
import type { ApprovalAction } from '../../../src/channel-host/approval-card.ts';
import { toolResultsOf } from '../../fakes/model-requests.ts';
import type { RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';

/** `file_write` is not auto-approved under the default supervised profile: every call prompts. */
export const writeCall = (path: string) => ({
  toolCalls: [{ name: 'file_write', arguments: { path, content: 'hi' } }],
});

/** The model asks for `file_write` once per path, then answers `done`. */
export function scriptWrites(h: RuntimeHarness, ...paths: string[]): void {
  h.server.script([...paths.map(writeCall), { text: 'done' }]);
}

const isCard = (r: LocalReply, chat: string) =>
  r.to.chat === chat && r.versions[0]?.buttons?.flat().some((b) => b.id.startsWith('approval:'));

/** The `n`-th approval card (1-based) posted in `chat`. */
export async function cardIn(h: RuntimeHarness, chat: string, n = 1): Promise<LocalReply> {
  await waitFor(
    () => h.local.replies.filter((r) => isCard(r, chat)).length >= n,
    20_000,
    `approval card ${n} in ${chat}`,
  );
  return h.local.replies.filter((r) => isCard(r, chat))[n - 1]!;
}

export function press(
  h: RuntimeHarness,
  card: LocalReply,
  action: ApprovalAction,
  senderId: string,
  stale = false,
) {
  const id = card.versions[0]!.buttons!.flat().find((b) => b.id.endsWith(`:${action}`))!.id;
  return h.local.press({ messageId: card.messageId, actionId: id, senderId, stale });
}

/** What the model was told as the result of the gated call (request `i` carries it). */
export async function toldModel(h: RuntimeHarness, i = 1): Promise<string> {
  await h.server.waitForRequests(i + 1, 30_000);
  return toolResultsOf(h.server.requests[i]!).at(-1)?.content ?? '';
}

/** Resolves once the card was edited (a version after the send) and has no buttons left. */
export async function settledCard(card: LocalReply): Promise<string> {
  await waitFor(() => card.versions.length > 1 && card.buttons.length === 0, 20_000, 'the card edited');
  return card.text;
}

/** Waits for the `n`-th reply in `chat` with exactly this text. */
export async function replyIn(h: RuntimeHarness, chat: string, text: string, n = 1): Promise<void> {
  await waitFor(
    () => h.local.replies.filter((r) => r.to.chat === chat && r.text === text).length >= n,
    30_000,
    `"${text}" ${n}x in ${chat}`,
  );
}
