-- Append a batch of one tree's run events (live.md §1), numbering each from the tree's counter, and wake the
-- readers. Both keys carry the tree's hash tag, so the script touches one slot.
-- KEYS[1] the tree's event stream, KEYS[2] the tree's sequence counter
-- ARGV[1] ttl seconds, ARGV[2] approximate max stream length, ARGV[3] pub/sub channel, ARGV[4] tree root id,
-- ARGV[5..] event JSON
-- Returns the last sequence number written.
local seq = 0
for i = 5, #ARGV do
  seq = redis.call('INCR', KEYS[2])
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[2], '*', 'seq', seq, 'e', ARGV[i])
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[1])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return seq
