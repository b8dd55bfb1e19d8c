-- Settle a pending approval by compare-and-set (approvals.md §10): the first settlement wins, later ones change nothing.
-- KEYS[1] record hash, KEYS[2] token index, KEYS[3] pending ids, KEYS[4] audit ids (sorted sets)
-- ARGV[1] mode: decide | expire | reap | cancel | undeliverable
-- ARGV[2] new status, ARGV[3] source (JSON), ARGV[4] decided_by (JSON), ARGV[5] heartbeat staleness ms,
-- ARGV[6] audit ttl ms, ARGV[7] approval id, ARGV[8] pub/sub channel, ARGV[9] dashboard pub/sub channel,
-- ARGV[10] its change message
-- Returns {'ok', now, created_at} | {'missing'} | {'not_pending', status} | {'expired'} | {'stale'} | {'not_due'}.
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'missing'} end
if status ~= 'pending' then return {'not_pending', status} end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = ARGV[1]
local expires = tonumber(redis.call('HGET', KEYS[1], 'expires_at'))
local beat = tonumber(redis.call('HGET', KEYS[1], 'waiter_heartbeat_at'))
if not expires or not beat then return {'missing'} end
local stale = now - beat >= tonumber(ARGV[5])
if mode == 'decide' then
  if now >= expires then return {'expired'} end
  if stale then return {'stale'} end
elseif mode == 'expire' then
  if now < expires then return {'not_due'} end
elseif mode == 'reap' then
  if not stale then return {'not_due'} end
end
local ttl = tonumber(ARGV[6])
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'source', ARGV[3], 'decided_by', ARGV[4], 'decided_at', now)
redis.call('PEXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('ZREM', KEYS[3], ARGV[7])
redis.call('ZADD', KEYS[4], now, ARGV[7])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', '(' .. (now - ttl))
redis.call('PUBLISH', ARGV[8], ARGV[2])
redis.call('PUBLISH', ARGV[9], ARGV[10])
local created = tonumber(redis.call('HGET', KEYS[1], 'created_at')) or now
return {'ok', now, created}
