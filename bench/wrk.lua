-- bench/wrk.sh's request script for wrk: POSTs to /validate the bodies of
-- the file given after "--" (one a line, written by `go run ./bench/run
-- -bodies FILE`: each tool's valid arguments, then its invalid ones), in
-- turn, each thread from its own offset as bench/load does. With WRK_VERIFY=1
-- in the environment it also checks every answer: a 200 whose first "valid"
-- is true for odd lines and false for even ones (run it at one connection:
-- wrk asks for each request just before it sends it, once the previous
-- answer is in, and makes one extra at the start), and prints
-- "verify: N checked, M wrong" at the end. Without it there is no response
-- hook, so wrk does not hand bodies to Lua while timing.
local reqs, want, nreq, i = {}, {}, 0, 0
local verify = os.getenv("WRK_VERIFY") == "1"
local last = 0 -- the request last made: at one connection, the one answered next
checked, wrong, sample = 0, 0, ""

local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function init(args)
  local f = assert(io.open(args[1], "r"), "bench/wrk.lua: cannot read the bodies file " .. tostring(args[1]))
  for line in f:lines() do
    if #line > 0 then
      nreq = nreq + 1
      reqs[nreq] = wrk.format("POST", "/validate", { ["Content-Type"] = "application/json" }, line)
      want[nreq] = (nreq % 2 == 1) and "true" or "false"
    end
  end
  f:close()
  i = (id or 0) * 7
end

function request()
  local k = i % nreq + 1
  i = i + 1
  last = k
  return reqs[k]
end

if verify then
  function response(status, headers, body)
    local k = last
    local got = body:match('"valid"%s*:%s*(%a+)')
    checked = checked + 1
    if status ~= 200 or got ~= want[k] then
      wrong = wrong + 1
      if sample == "" then
        sample = string.format("line %d: status %d, valid %s, want %s: %s", k, status, tostring(got), want[k], (body:sub(1, 200):gsub("%s+", " ")))
      end
    end
  end

  function done(summary, latency, requests)
    local c, w, s = 0, 0, ""
    for _, t in ipairs(threads) do
      c, w = c + t:get("checked"), w + t:get("wrong")
      if s == "" then s = t:get("sample") end
    end
    io.write(string.format("verify: %d checked, %d wrong %s\n", c, w, s))
  end
end
