-- Queue a reply on its channel's outbox stream once per idempotency key.
-- KEYS[1] reply idempotency key, KEYS[2] channel outbox stream
-- ARGV[1] idempotency ttl seconds, ARGV[2] recipient JSON, ARGV[3] text, ARGV[4] conversation id, ARGV[5] sequence
-- ('' for both when the reply is not ordered in a conversation). Returns 1 when queued, 0 for a repeat.
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) == false then return 0 end
redis.call('XADD', KEYS[2], '*', 'to', ARGV[2], 'text', ARGV[3], 'conv', ARGV[4], 'seq', ARGV[5])
return 1
