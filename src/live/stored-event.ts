// A run event as stored in its tree's stream (live.md §1): without what the stream already says. Every event of a
// stream belongs to its tree, and most events are the root's, so the root run id, a run id equal to the root and
// null parents are left out when written and filled back when read, before the event is checked. An event stored
// whole (by an earlier release) reads the same.
import type { NewRunEvent } from '../run-contract/run-events.ts';

/** The event without its root run id, its run id when it is the root, and its parents when they are null. */
export function compactEvent(event: NewRunEvent): Record<string, unknown> {
  const { root_run_id, run_id, parent_run_id, parent_tool_call_id, ...rest } = event;
  return {
    ...(run_id === root_run_id ? {} : { run_id }),
    ...(parent_run_id === null ? {} : { parent_run_id }),
    ...(parent_tool_call_id === null ? {} : { parent_tool_call_id }),
    ...rest,
  };
}

/**
 * A stored event of the tree `root` with what was left out filled back (root run id: the tree's; run id: the root;
 * parents: null), for the schema check. Anything else than an object is returned as it is, for the check to refuse.
 */
export function expandEvent(stored: unknown, root: string): unknown {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return stored;
  const event: Record<string, unknown> = {
    root_run_id: root,
    run_id: root,
    parent_run_id: null,
    parent_tool_call_id: null,
    ...stored,
  };
  event.root_run_id = root;
  return event;
}
