-- Moves a Discord channel's last seen message id forward, never back (two gateways during a hand-over, or a
-- catch-up racing a live message, may write out of order). Snowflakes are decimal strings: longer is newer, and
-- at equal length the string order is the numeric order.
-- KEYS[1] the hash of last seen ids, ARGV[1] the channel id, ARGV[2] the message id, ARGV[3] ttl seconds
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur and (#cur > #ARGV[2] or (#cur == #ARGV[2] and cur >= ARGV[2])) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
