// Reading the fake model's recorded requests.
import type { RecordedRequest } from '../fakes/model-server.ts';

/** The newest user message of a model request (what the turn answers). */
export const askedOf = (r: RecordedRequest) =>
  String((r.body.messages ?? []).filter((m) => m.role === 'user').at(-1)?.content ?? '');
