-- Commit a finished turn in one step: its history, its reply, and the removal of its event from the inbox.
-- A crash before this re-runs the turn; after it, nothing is left to do. Each part is idempotent, so a
-- re-run that reaches here again (a stalled job) changes nothing twice. The turn's running mark (read by
-- the abort API) is cleared in the same step.
-- KEYS[1] conversation inbox list, KEYS[2] set of conversations with pending events,
-- KEYS[3] reply idempotency key, KEYS[4] channel outbox stream, KEYS[5] running-turns hash,
-- KEYS[6] session history list, KEYS[7] set of turn ids already in that history,
-- KEYS[8] session index (sorted set: session member -> last activity ms, read by the dashboard),
-- KEYS[9] the turn's runs that queued live ops (live-shows.ts), KEYS[10] the files the turn's runs queued
-- (turn-files.ts), KEYS[11] the history list the next turn reads (its session is the conversation)
-- ARGV[1] event id, ARGV[2] conversation id, ARGV[3] idempotency ttl seconds,
-- ARGV[4..8] the reply's outbox entry (outbox-entry.fragment.lua), ARGV[9] this turn's id,
-- ARGV[10] history ttl seconds, ARGV[11] max stored history messages, ARGV[12] session index member,
-- ARGV[13] dashboard pub/sub channel, ARGV[14] its change message, ARGV[15] the run that answers ('' for none),
-- ARGV[16] the next turn's run id ('' : the worker takes no next turn now), ARGV[17] the worker's id,
-- ARGV[18] the agent whose history the next turn reads, ARGV[19] how many of its last entries,
-- ARGV[20..] history messages (JSON)
-- Returns { events left, the new head event JSON or '', the next turn's id when its running mark was set here
-- or '', the next turn's history entries when read here (else nil) }: the next turn starts without a round
-- trip of its own (turn-worker.ts).
--!include outbox-entry.fragment.lua
--!include ../../session/lua/history-append.fragment.lua
--!include begin-turn.fragment.lua
if #ARGV > 19 then history_append(KEYS[6], KEYS[7], KEYS[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], 20) end
-- The reply replaces the live previews of its turn (live.md §2 step 3): it names every run that showed live
-- messages, the answering run last, so the gateway edits the newest preview into the answer and deletes the
-- ones of runs that died or were handed back. A turn that showed nothing costs the gateway nothing.
local tag = ARGV[8]
local runs = redis.call('LRANGE', KEYS[9], 0, -1)
if #runs > 0 then
  local ordered = {}
  for _, run in ipairs(runs) do
    if run ~= ARGV[15] then ordered[#ordered + 1] = run end
  end
  if ARGV[15] ~= '' then ordered[#ordered + 1] = ARGV[15] end
  tag = 'finishes:' .. cjson.encode(ordered)
end
-- The answering run's send_file files leave with its answer (media.md §2); a run handed back sent none.
local files = {}
for _, raw in ipairs(redis.call('LRANGE', KEYS[10], 0, -1)) do
  local ok, f = pcall(cjson.decode, raw)
  if ok and type(f) == 'table' and f.run == ARGV[15] then
    f.run = nil
    files[#files + 1] = f
  end
end
local tag2 = ''
if #files > 0 then tag2 = 'files:' .. cjson.encode(files) end
redis.call('DEL', KEYS[9], KEYS[10])
if redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[3]) then
  outbox_add(KEYS[4], ARGV[4], ARGV[5], ARGV[6], ARGV[7], tag, tag2)
end
-- Stored records are decoded under pcall: an unreadable one must not fail the script after the history and
-- the reply above were written. An unreadable head is not this turn's event (the inbox drops it on its own);
-- an unreadable running mark can belong to no other run (one turn of a conversation runs at a time): cleared.
-- A head cjson cannot decode (JSON.stringify's \ud800 for a lone surrogate) is still this turn's event when its
-- eventId says so (JSON.stringify writes no spaces; a quote inside a string value is always escaped).
local function isEvent(raw)
  local ok, v = pcall(cjson.decode, raw)
  if ok then return type(v) == 'table' and v.eventId == ARGV[1] end
  local id = string.gsub(cjson.encode(ARGV[1]), '\\/', '/')
  return string.find(raw, '"eventId":' .. id, 1, true) ~= nil
end
local head = redis.call('LINDEX', KEYS[1], 0)
if head and isEvent(head) then redis.call('LPOP', KEYS[1]) end
local mark = redis.call('HGET', KEYS[5], ARGV[2])
if mark then
  local ok, v = pcall(cjson.decode, mark)
  if not ok or type(v) ~= 'table' or v.runId == ARGV[9] then redis.call('HDEL', KEYS[5], ARGV[2]) end
end
-- The open dashboard pages of this conversation: its history and its running state may have changed.
redis.call('PUBLISH', ARGV[13], ARGV[14])
local left = redis.call('LLEN', KEYS[1])
if left == 0 then
  redis.call('SREM', KEYS[2], ARGV[2])
  return { 0, '' }
end
local nextHead = redis.call('LINDEX', KEYS[1], 0)
if ARGV[16] == '' then return { left, nextHead } end
local turn, entries = begin_turn(nextHead, KEYS[5], ARGV[2], ARGV[16], ARGV[17], ARGV[18], ARGV[19], KEYS[11])
return { left, nextHead, turn, entries }
