// A getUpdates batch handed to baton concurrently: one lane per chat keeps each chat's updates in order, while
// chats do not wait for each other's inbox round trips.

export interface UpdateFailure {
  updateId: unknown;
  err: unknown;
}

export interface UpdateLanes {
  /** Runs `work` for `update` once the earlier updates of its chat are done. */
  add(update: unknown, work: () => Promise<void>): void;
  /** Resolves once every update added so far (and any added meanwhile) is done. */
  idle(): Promise<void>;
  /** The failures since the last call. */
  takeFailures(): UpdateFailure[];
}

/** The chat an update belongs to ('' for kinds without one: they share a lane). */
export function chatOf(update: unknown): string {
  type Chatty = { chat?: { id?: unknown } };
  const u = update as { message?: Chatty; channel_post?: Chatty; callback_query?: { message?: Chatty } };
  const id = u.message?.chat?.id ?? u.channel_post?.chat?.id ?? u.callback_query?.message?.chat?.id;
  return id === undefined ? '' : String(id);
}

export function createUpdateLanes(): UpdateLanes {
  const tails = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  let failures: UpdateFailure[] = [];
  return {
    add(update, work) {
      const chat = chatOf(update);
      const run = (tails.get(chat) ?? Promise.resolve()).then(work).catch((err: unknown) => {
        failures.push({ updateId: (update as { update_id?: unknown }).update_id, err });
      });
      tails.set(chat, run);
      pending.add(run);
      void run.then(() => {
        pending.delete(run);
        if (tails.get(chat) === run) tails.delete(chat);
      });
    },
    async idle() {
      while (pending.size) await Promise.all(pending);
    },
    takeFailures() {
      const taken = failures;
      failures = [];
      return taken;
    },
  };
}
