-- Check a hop's cost limits and reserve the estimated cost of its next request, atomically, so concurrent
-- requests (in any worker) cannot all pass a check that only one of them may pass. Also says whether the
-- request goes to route_down_model: a shared total at or past its route threshold.
-- KEYS[1] shared day total, KEYS[2] shared month total, then for each chain member i (root first, the hop
-- last): KEYS[2 + 2i + 1] its own day total, KEYS[2 + 2i + 2] its descendants' day total. (Variable count.)
-- ARGV[1] daily limit, ARGV[2] monthly limit, ARGV[3] per-agent totals (1) or not (0), ARGV[4] reservation,
-- ARGV[5] day ttl, ARGV[6] month ttl, ARGV[7] daily route threshold, ARGV[8] monthly route threshold,
-- ARGV[9] reservation when routed, ARGV[10..] effective ceiling of each chain member (micro-dollars); a
-- member past the end of the list has no ceiling (a root turn has none).
-- Returns {0, routed (0/1), day, month} when reserved (totals before it), {1, day} daily limit,
-- {2, member index (0-based), spent} a ceiling, {3, month} monthly limit.
local function num(k) return tonumber(redis.call('GET', k) or '0') end
local n = (#KEYS - 2) / 2
local perAgent = ARGV[3] == '1'
local day = num(KEYS[1])
if day >= tonumber(ARGV[1]) then return {1, day} end
local hop = n - 1
local function ceiling(i) return tonumber(ARGV[10 + i]) end
local own = perAgent and num(KEYS[2 + 2 * hop + 1]) or day
if ceiling(hop) and own >= ceiling(hop) then return {2, hop, own} end
for i = 0, hop - 1 do
  local spent = perAgent and (num(KEYS[2 + 2 * i + 1]) + num(KEYS[2 + 2 * i + 2])) or day
  if ceiling(i) and spent >= ceiling(i) then return {2, i, spent} end
end
local month = num(KEYS[2])
if month >= tonumber(ARGV[2]) then return {3, month} end
local routed = day >= tonumber(ARGV[7]) or month >= tonumber(ARGV[8])
local r = tonumber(routed and ARGV[9] or ARGV[4])
if r > 0 then
  redis.call('INCRBY', KEYS[1], r)
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  redis.call('INCRBY', KEYS[2], r)
  redis.call('EXPIRE', KEYS[2], ARGV[6])
  if perAgent then
    redis.call('INCRBY', KEYS[2 + 2 * hop + 1], r)
    redis.call('EXPIRE', KEYS[2 + 2 * hop + 1], ARGV[5])
    for i = 0, hop - 1 do
      redis.call('INCRBY', KEYS[2 + 2 * i + 2], r)
      redis.call('EXPIRE', KEYS[2 + 2 * i + 2], ARGV[5])
    end
  end
end
return {0, routed and 1 or 0, day, month}
