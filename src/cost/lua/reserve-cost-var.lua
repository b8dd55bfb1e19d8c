-- Check a hop's cost limits and reserve the estimated cost of its next request, atomically, so concurrent
-- requests (in any worker) cannot all pass a check that only one of them may pass. Also says whether the
-- request goes to route_down_model: a shared total at or past its route threshold.
-- KEYS[1] shared day total, KEYS[2] shared month total, then for each chain member i (root first, the hop
-- last): KEYS[2 + 2i + 1] its own day total, KEYS[2 + 2i + 2] its descendants' day total. (Variable count.)
-- ARGV[1] daily limit, ARGV[2] monthly limit, ARGV[3] per-agent totals (1) or not (0), ARGV[4] reservation,
-- ARGV[5] day ttl, ARGV[6] month ttl, ARGV[7] daily route threshold, ARGV[8] monthly route threshold,
-- ARGV[9] reservation when routed, ARGV[10..] effective ceiling of each chain member (micro-dollars); a
-- member past the end of the list has no ceiling (a root turn has none).
-- Returns {0, routed (0/1), day, month, unreadable keys...} when reserved (totals before it), {1, day}
-- daily limit, {2, member index (0-based), spent} a ceiling, {3, month} monthly limit; a refusal caused by
-- an unreadable counter reports the limit as spent and names the key as a last element.
-- Fail closed: a counter that is not an integer (damaged, or another type) cannot prove room is left, so
-- every check that reads it finds its limit reached, for the rest of that counter's period (its key names
-- the day or month). It is never incremented (INCRBY would fail the script) nor reset (that would forget
-- the spend). A request no check of which reads it (a root turn's own per-agent total) still proceeds.
local function num(k)
  local v = redis.pcall('GET', k)
  if v == false then return 0 end
  if type(v) == 'string' and #v <= 18 and string.match(v, '^%-?%d+$') then return tonumber(v) end
  return nil
end
local n = (#KEYS - 2) / 2
local perAgent = ARGV[3] == '1'
local dailyLimit, monthlyLimit = tonumber(ARGV[1]), tonumber(ARGV[2])
local day = num(KEYS[1])
if day == nil then return {1, dailyLimit, KEYS[1]} end
if day >= dailyLimit then return {1, day} end
local hop = n - 1
local function ceiling(i) return tonumber(ARGV[10 + i]) end
local skipped = {}
local own = day
if perAgent then own = num(KEYS[2 + 2 * hop + 1]) end
if ceiling(hop) then
  if own == nil then return {2, hop, ceiling(hop), KEYS[2 + 2 * hop + 1]} end
  if own >= ceiling(hop) then return {2, hop, own} end
elseif own == nil then
  skipped[KEYS[2 + 2 * hop + 1]] = true
end
for i = 0, hop - 1 do
  local spent = day
  local bad = nil
  if perAgent then
    local o, d = num(KEYS[2 + 2 * i + 1]), num(KEYS[2 + 2 * i + 2])
    if o == nil then bad = KEYS[2 + 2 * i + 1] elseif d == nil then bad = KEYS[2 + 2 * i + 2] end
    if d == nil then skipped[KEYS[2 + 2 * i + 2]] = true end
    spent = (o or 0) + (d or 0)
  end
  if ceiling(i) then
    if bad then return {2, i, ceiling(i), bad} end
    if spent >= ceiling(i) then return {2, i, spent} end
  end
end
local month = num(KEYS[2])
if month == nil then return {3, monthlyLimit, KEYS[2]} end
if month >= monthlyLimit then return {3, month} end
local routed = day >= tonumber(ARGV[7]) or month >= tonumber(ARGV[8])
local r = tonumber(routed and ARGV[9] or ARGV[4])
local function add(k, ttl)
  if not skipped[k] then
    redis.call('INCRBY', k, r)
    redis.call('EXPIRE', k, ttl)
  end
end
if r > 0 then
  add(KEYS[1], ARGV[5])
  add(KEYS[2], ARGV[6])
  if perAgent then
    add(KEYS[2 + 2 * hop + 1], ARGV[5])
    for i = 0, hop - 1 do add(KEYS[2 + 2 * i + 2], ARGV[5]) end
  end
end
local out = {0, routed and 1 or 0, day, month}
for k in pairs(skipped) do out[#out + 1] = k end
return out
