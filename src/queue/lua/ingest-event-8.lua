-- Accept an inbound event once: dedupe by platform event id, number it in its conversation, append it.
-- KEYS[1] dedupe key, KEYS[2] conversation inbox list, KEYS[3] set of conversations with pending events,
-- KEYS[4] conversation sequence counter, KEYS[5] last reply sequence sent for the conversation,
-- KEYS[6] session index (sorted set: session member -> last activity ms, read by the dashboard),
-- KEYS[7] the conversation's drain job (BullMQ's job hash: it exists from the kick until the job is removed),
-- KEYS[8] the conversation's owed re-kick mark (set here on -1; the finishing job's completion takes it)
-- ARGV[1] dedupe ttl seconds, ARGV[2] event JSON (a non-empty object, without `seq`), ARGV[3] conversation id,
-- ARGV[4] sequence ttl seconds, ARGV[5] session index member, ARGV[6] dashboard pub/sub channel,
-- ARGV[7] its change message
-- Returns 0 when the event was already seen, else the inbox length after the append (1: the inbox was
-- empty, so the conversation needs a drain job; more: the drain job in charge will reach it), except -1 when
-- the inbox was empty but the drain job still exists: it settled its last event and is finishing, and its
-- completion re-kicks the conversation (a kick now would only meet its job id and be dropped). The -1 leaves a
-- mark for that completion: a job that drained its inbox re-kicks only when it finds one, since an event that got
-- 1 has its kick on the way from the gateway (a second add would be dropped as a duplicate, at a cost).
-- Nothing that can fail runs after the first write: an error here once left the sequence advanced with no event
-- stored, and every later reply of the conversation waited for the missing one. So the JSON is never decoded
-- (cjson rejects what JSON.stringify writes for a lone surrogate): `seq` is spliced in before the closing brace.
local event = ARGV[2]
if string.sub(event, 1, 1) ~= '{' or string.sub(event, -1) ~= '}' or event == '{}' then
  return redis.error_reply('ERR ingest-event: the event must be a non-empty JSON object')
end
if not tonumber(ARGV[1]) or not tonumber(ARGV[4]) then
  return redis.error_reply('ERR ingest-event: the ttls must be numbers')
end
local inboxType = redis.call('TYPE', KEYS[2])['ok']
local activeType = redis.call('TYPE', KEYS[3])['ok']
local indexType = redis.call('TYPE', KEYS[6])['ok']
if (inboxType ~= 'none' and inboxType ~= 'list') or (activeType ~= 'none' and activeType ~= 'set')
  or (indexType ~= 'none' and indexType ~= 'zset') then
  return redis.error_reply('ERR ingest-event: the inbox keys hold the wrong types')
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local seq = redis.call('INCR', KEYS[4])
local length = redis.call('RPUSH', KEYS[2], string.sub(event, 1, -2) .. ',"seq":' .. seq .. '}')
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
redis.call('EXPIRE', KEYS[4], ARGV[4])
-- The reply order starts here: nothing of this conversation has been sent before sequence 1.
redis.call('SET', KEYS[5], seq - 1, 'NX', 'EX', ARGV[4])
redis.call('EXPIRE', KEYS[5], ARGV[4])
redis.call('SADD', KEYS[3], ARGV[3])
-- The dashboard lists every conversation that has a message, from its first one: a turn that fails (no model
-- reachable) writes no history, and a first turn still running has none yet. The settle moves the score on.
-- Millisecond scores built as strings: Lua's number formatting would round them.
local t = redis.call('TIME')
redis.call('ZADD', KEYS[6], t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)), ARGV[5])
redis.call('PUBLISH', ARGV[6], ARGV[7])
if length == 1 and redis.call('EXISTS', KEYS[7]) == 1 then
  redis.call('SET', KEYS[8], '1', 'EX', ARGV[1])
  return -1
end
return length
