// Shared helpers of the delegate integration tests: finding tool results and per-model requests.
import { toolResultsOf } from '../../fakes/model-requests.ts';
import type { FakeModelServer, RecordedRequest } from '../../fakes/model-server.ts';

/** The model-visible result of tool call `id`, from whichever recorded request first carries it. */
export function resultOf(server: FakeModelServer, id: string): string | undefined {
  for (const req of server.requests) {
    const hit = toolResultsOf(req).find((r) => r.toolCallId === id);
    if (hit) return hit.content;
  }
  return undefined;
}

export const requestsFor = (server: FakeModelServer, model: string): RecordedRequest[] =>
  server.requests.filter((r) => r.body.model === model);

/** The user-message texts of a request (OpenAI wire). */
export const userTexts = (req: RecordedRequest): string[] =>
  (req.body.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content));
