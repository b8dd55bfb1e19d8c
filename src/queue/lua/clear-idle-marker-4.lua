-- Whether a BullMQ queue has a job to hand out, and if not, clear its base marker (member "0"), so the next
-- blocking wait on the marker blocks instead of waking for nothing.
-- BullMQ (addBaseMarkerIfNeeded in prepareJobForProcessing) adds that marker each time a worker takes a job, for
-- the jobs that may be behind it; with none behind, the taker's own next wait wakes on it, and a fetch finds
-- nothing. Any later add (or promotion) sets it again, and this runs atomically, so no new job's wake-up is lost.
-- KEYS[1] wait list, KEYS[2] prioritized zset, KEYS[3] delayed zset, KEYS[4] marker zset
-- Returns 1 when nothing waits (the marker is cleared), else 0.
if redis.call('LLEN', KEYS[1]) > 0 or redis.call('ZCARD', KEYS[2]) > 0 or redis.call('ZCARD', KEYS[3]) > 0 then
  return 0
end
redis.call('ZREM', KEYS[4], '0')
return 1
