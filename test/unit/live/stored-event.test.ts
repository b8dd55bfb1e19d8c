// live.md §1: a run event is stored without what its tree's stream implies and read back whole; an event stored
// whole by the previous release reads the same.
import { describe, expect, it } from 'vitest';
import { compactEvent, expandEvent } from '../../../src/live/stored-event.ts';
import { type NewRunEvent, runEventSchema } from '../../../src/run-contract/run-events.ts';

const ROOT = '0b5e7c1e-6a39-4a4e-9f57-3f1f6c1f2a10';
const CHILD = '5c1d9f3a-2b7e-4c0a-8d6f-1e2a3b4c5d6e';

const rootEvent: NewRunEvent = {
  root_run_id: ROOT,
  run_id: ROOT,
  parent_run_id: null,
  parent_tool_call_id: null,
  at: 1_700_000_000_000,
  type: 'tool_started',
  tool_call_id: 'call_1',
  tool: 'file_write',
  args_summary: 'path: notes.txt',
};
const childEvent: NewRunEvent = {
  root_run_id: ROOT,
  run_id: CHILD,
  parent_run_id: ROOT,
  parent_tool_call_id: 'call_delegate',
  at: 1_700_000_000_001,
  type: 'run_started',
  kind: 'delegate',
  agent: 'coder',
  session_key: 'telegram.main:42:',
  mode: 'bounded',
};

/** Through the stream as the writer stores it (JSON) and as the reader checks it. */
const roundTrip = (e: NewRunEvent) =>
  runEventSchema.parse(expandEvent(JSON.parse(JSON.stringify(compactEvent(e))), ROOT));

describe('stored run events', () => {
  it("a root's event is stored without its envelope but its time, and reads back whole, in the same order", () => {
    expect(compactEvent(rootEvent)).toEqual({
      at: rootEvent.at,
      type: 'tool_started',
      tool_call_id: 'call_1',
      tool: 'file_write',
      args_summary: 'path: notes.txt',
    });
    expect(JSON.stringify(roundTrip(rootEvent))).toBe(JSON.stringify(rootEvent));
  });

  it("a child's event keeps its run id and parents, and reads back whole", () => {
    const stored = compactEvent(childEvent);
    expect(stored).not.toHaveProperty('root_run_id');
    expect(stored).toMatchObject({
      run_id: CHILD,
      parent_run_id: ROOT,
      parent_tool_call_id: 'call_delegate',
    });
    expect(JSON.stringify(roundTrip(childEvent))).toBe(JSON.stringify(childEvent));
  });

  it('an event stored whole (the previous release) reads the same', () => {
    for (const e of [rootEvent, childEvent]) {
      const old = JSON.parse(JSON.stringify(e));
      expect(JSON.stringify(runEventSchema.parse(expandEvent(old, ROOT)))).toBe(JSON.stringify(e));
    }
  });

  it('a damaged event is still refused: only missing fields are filled', () => {
    const { at: _, ...noTime } = compactEvent(rootEvent);
    for (const bad of [null, 'text', [1], { ...compactEvent(rootEvent), run_id: null }, noTime])
      expect(runEventSchema.safeParse(expandEvent(bad, ROOT)).success).toBe(false);
  });
});
