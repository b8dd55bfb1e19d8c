-- Fragment (included, never run alone): the conversation's next turn begins with no round trip of its own.
-- Its running mark, as markRunning writes it (running-turns.ts): the worker registered the turn's abort before
-- the script ran, so an abort that finds the mark reaches it. Its history, when the head is `agent`'s (the
-- session is the conversation). A head cjson cannot read is left to the worker (it drops or marks it itself).
-- Returns the turn id marked ('' for none) and the history entries read (nil: the head is another agent's).
local function begin_turn(head, running, conversation, run_id, worker_id, agent, limit, history)
  local ok, ev = pcall(cjson.decode, head)
  if not ok or type(ev) ~= 'table' or type(ev.channel) ~= 'string' or type(ev.eventId) ~= 'string' then
    return '', nil
  end
  local turn = ev.channel .. ':' .. ev.eventId
  redis.call('HSET', running, conversation, cjson.encode({ runId = turn, workerId = worker_id, rootRunId = run_id }))
  if ev.agent ~= agent then return turn, nil end
  local n = tonumber(limit)
  if n <= 0 then return turn, {} end
  return turn, redis.call('LRANGE', history, -n, -1)
end
