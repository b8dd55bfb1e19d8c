-- Settle a conversation's head event and queue its reply in one step: the event leaves the inbox only
-- together with its reply, so a crash either re-runs the turn or finds the reply already queued.
-- KEYS[1] conversation inbox list, KEYS[2] set of conversations with pending events,
-- KEYS[3] reply idempotency key, KEYS[4] channel outbox stream
-- ARGV[1] event id, ARGV[2] conversation id, ARGV[3] idempotency ttl seconds,
-- ARGV[4] recipient JSON, ARGV[5] reply text, ARGV[6] reply sequence
-- Returns { events left, the new head event JSON or '' }.
if redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[3]) then
  redis.call('XADD', KEYS[4], '*', 'to', ARGV[4], 'text', ARGV[5], 'conv', ARGV[2], 'seq', ARGV[6])
end
local head = redis.call('LINDEX', KEYS[1], 0)
if head and cjson.decode(head).eventId == ARGV[1] then redis.call('LPOP', KEYS[1]) end
local left = redis.call('LLEN', KEYS[1])
if left == 0 then
  redis.call('SREM', KEYS[2], ARGV[2])
  return { 0, '' }
end
return { left, redis.call('LINDEX', KEYS[1], 0) }
