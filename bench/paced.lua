-- Fixed-rate load for wrk (Debian's wrk 4, LuaJIT): wrk2's method without wrk2, which Debian
-- does not package. Run with one connection per thread (`-t N -c N`) and
-- `-- <requests/s per connection> <connections>`: each connection has a schedule of its own,
-- `interval` apart and staggered against the others, and sends each request when it is due.
--
-- Coordinated omission: a connection still waiting for an answer when its next request falls due
-- sends that request late, and its latency is counted from when it was due, not from when it was
-- sent, so a server stall counts for every request it held up. A request sent late only because
-- wrk's timers tick in whole milliseconds is counted from when it was sent: that delay is the
-- generator's, not the server's.
--
-- Prints one line, `paced {json}`, with the latency percentiles (µs) of all connections.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clock_id, bench_timespec *tp);
]]
local CLOCK_MONOTONIC = 1
local timespec = ffi.new("bench_timespec")
local function now_us()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, timespec)
  return tonumber(timespec.tv_sec) * 1e6 + tonumber(timespec.tv_nsec) / 1e3
end

local threads = {}
local created = 0

function setup(thread)
  thread:set("index", created)
  created = created + 1
  table.insert(threads, thread)
end

function init(args)
  interval = 1e6 / tonumber(args[1])
  connections = tonumber(args[2])
  formatted = wrk.format()
  latencies = {}
  errors = 0
  due = nil
  started = 0
  answered = 0
end

function delay()
  local now = now_us()
  if due == nil then
    due = now + interval * index / connections
  else
    due = due + interval
  end
  local wait_ms = (due - now) / 1000
  if wait_ms < 1 then
    return 0
  end
  return math.floor(wait_ms)
end

function request()
  local now = now_us()
  -- wrk sends each connection's first request without asking delay().
  due = due or now
  if answered > due then
    started = due
  else
    started = now
  end
  return formatted
end

function response(status, headers, body)
  answered = now_us()
  if status ~= 200 then
    errors = errors + 1
  end
  latencies[#latencies + 1] = answered - started
end

function done(summary, latency, requests)
  local all = {}
  local e = summary.errors
  local failed = e.connect + e.read + e.write + e.timeout
  for _, thread in ipairs(threads) do
    local measured = thread:get("latencies")
    for i = 1, #measured do
      all[#all + 1] = measured[i]
    end
    failed = failed + thread:get("errors")
  end
  table.sort(all)
  local function at(q)
    if #all == 0 then
      return 0
    end
    return all[math.min(#all, math.floor(q * #all) + 1)]
  end
  io.write(string.format(
    'paced {"requests":%d,"errors":%d,"seconds":%.3f,"p50":%.1f,"p90":%.1f,"p99":%.1f,"p999":%.1f,"max":%.1f}\n',
    #all, failed, summary.duration / 1e6, at(0.5), at(0.9), at(0.99), at(0.999), at(1)))
end
