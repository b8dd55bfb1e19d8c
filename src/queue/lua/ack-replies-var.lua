-- Replies have left (or were given up on): drop them from the outbox stream and move each ordered
-- conversation's last-sent mark, so its next reply may leave. One call acknowledges a batch.
-- KEYS[1] channel outbox stream, KEYS[2..] the last-sent mark of each ordered conversation in the batch
-- ARGV[1] consumer group, ARGV[2] mark ttl seconds, ARGV[3] number of entry ids n, ARGV[4..3+n] entry ids,
-- ARGV[4+n..] the sequence sent for each mark in KEYS[2..]
local n = tonumber(ARGV[3])
local ids = {}
for i = 1, n do ids[i] = ARGV[3 + i] end
redis.call('XACK', KEYS[1], ARGV[1], unpack(ids))
redis.call('XDEL', KEYS[1], unpack(ids))
for i = 2, #KEYS do
  local seq = tonumber(ARGV[3 + n + i - 1])
  -- An unreadable mark (damaged) is replaced: failing here would leave every reply of the batch unacked.
  local raw = redis.call('GET', KEYS[i]) or '0'
  local last = string.match(raw, '^%d+$') and tonumber(raw) or -1
  if seq > last then redis.call('SET', KEYS[i], seq, 'EX', ARGV[2]) end
end
return n
