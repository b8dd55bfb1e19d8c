-- Drop a conversation's head event that cannot be read (it would stop the conversation for good), only if it
-- is still that exact value, and answer it in its place in the reply order: the event consumed a reply
-- sequence number when it was accepted, and every later reply of the conversation waits for that number.
-- KEYS[1] conversation inbox list, KEYS[2] set of conversations with pending events,
-- KEYS[3] conversation sequence counter, KEYS[4] channel outbox stream ('' key name unused when no recipient)
-- ARGV[1] the unreadable head as stored, ARGV[2] conversation id, ARGV[3] recipient JSON ('' when unknown),
-- ARGV[4] reply text, ARGV[5] the sequence read from the head ('' when unreadable)
-- Returns { 1 when this call dropped it, the new head or '' }.
--!include outbox-entry.fragment.lua
local dropped = 0
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then
  -- Every accepted event took the next number and events leave from the head, so the head's number is the
  -- counter minus the events behind it (ingest moves both together).
  local seq = tonumber(ARGV[5])
  if not seq then seq = tonumber(redis.call('GET', KEYS[3]) or '0') - redis.call('LLEN', KEYS[1]) + 1 end
  redis.call('LPOP', KEYS[1])
  dropped = 1
  if ARGV[3] ~= '' and seq > 0 then
    outbox_add(KEYS[4], ARGV[3], ARGV[4], ARGV[2], seq, '')
  end
end
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('SREM', KEYS[2], ARGV[2])
  return { dropped, '' }
end
return { dropped, redis.call('LINDEX', KEYS[1], 0) }
