package lua

import "testing"

type classifyCase struct {
	name string
	src  string
	want Script
}

// cases is shared with FuzzClassify as its seed corpus.
var cases = []classifyCase{
	// Compare-and-delete releases.
	{"release", `if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release single quotes upper case", `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release pcall unlink", `if redis.pcall("GET", KEYS[1]) == ARGV[2] then return redis.pcall("UNLINK", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 2}},
	{"release operands swapped", `if ARGV[1] == redis.call("get", KEYS[1]) then return redis.call("del", KEYS[1]) end`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release via local GET", `local v = redis.call('GET', KEYS[1]) if v == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release negated early return", `if redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 end return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release negated else", `if redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 else return redis.call("del", KEYS[1]) end`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release not equal", `if not (redis.call("get", KEYS[1]) == ARGV[1]) then return 0 end redis.call("del", KEYS[1]) return 1`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release ARGV via local", `local token = ARGV[1]; if redis.call("GET", KEYS[1]) == token then return redis.call("DEL", KEYS[1]) end; return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release key via local", `local key, token = KEYS[1], ARGV[3]
local cur = redis.call("get", key)
if cur == token then return redis.call("del", key) end
return 0`,
		Script{CompareAndDelete: true, OwnerArg: 3}},
	{"release tostring and conjunction", `if redis.call("get", KEYS[1]) == tostring(ARGV[1]) and ARGV[2] ~= "" then redis.call("del", KEYS[1]) end`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"release disjunction early return", `if redis.call("exists", KEYS[1]) == 0 or redis.call("get", KEYS[1]) ~= ARGV[1] then return 0 end return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"redsync delete", `
	local val = redis.call("GET", KEYS[1])
	if val == ARGV[1] then
		return redis.call("DEL", KEYS[1])
	elseif val == false then
		return -1
	else
		return 0
	end
`, Script{CompareAndDelete: true, OwnerArg: 1}},
	{"go-zero delscript", "if redis.call(\"GET\", KEYS[1]) == ARGV[1] then\n    return redis.call(\"DEL\", KEYS[1])\nelse\n    return 0\nend",
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"bsm release", `-- release.lua: => Arguments: [value]
-- Release.lua deletes provided keys if all their values match the input. 

-- Check all keys values matches provided input.
local values = redis.call("mget", unpack(KEYS))
for i, _ in ipairs(KEYS) do
	if values[i] ~= ARGV[1] then
		return false
	end
end

-- Delete keys.
redis.call("del", unpack(KEYS))

return redis.status_reply("OK")`, Script{CompareAndDelete: true, OwnerArg: 1}},
	{"MGET over table.unpack", `local values = redis.call("mget", table.unpack(KEYS))
for i, _ in ipairs(KEYS) do if values[i] ~= ARGV[1] then return false end end
redis.call("del", KEYS[1])
return 1`, Script{CompareAndDelete: true, OwnerArg: 1}},
	{"loop GET per key then DEL", `for _, key in ipairs(KEYS) do
  if redis.call("GET", key) ~= ARGV[1] then return 0 end
end
for _, key in ipairs(KEYS) do redis.call("DEL", key) end
return 1`, Script{CompareAndDelete: true, OwnerArg: 1}},
	{"MGET values loop", `local vals = redis.call('MGET', KEYS[1], KEYS[2])
for _, v in ipairs(vals) do if v ~= ARGV[1] then return 0 end end
return redis.call('DEL', KEYS[1], KEYS[2])`, Script{CompareAndDelete: true, OwnerArg: 1}},
	{"redisson unlock", `if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil; end;
local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1);
if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0;
else redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end;
return nil;`, Script{CompareAndDelete: true, CompareAndExpire: true, OwnerArg: 3}},

	// Owner-checked refreshes.
	{"bsm refresh", `-- refresh.lua: => Arguments: [value, ttl]
local values = redis.call("mget", unpack(KEYS))
for i, _ in ipairs(KEYS) do
	if values[i] ~= ARGV[1] then
		return false
	end
end

-- Update keys ttls.
for _, key in ipairs(KEYS) do
	redis.call("pexpire", key, ARGV[2]) 
end

return redis.status_reply("OK")`, Script{CompareAndExpire: true, OwnerArg: 1}},
	{"bsm old refresh", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`,
		Script{CompareAndExpire: true, OwnerArg: 1}},
	{"refresh adding to the PTTL", `local pttl = redis.call("PTTL", KEYS[1]) if pttl > 0 and redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], pttl + tonumber(ARGV[2])) else return 0 end`,
		Script{CompareAndExpire: true, OwnerArg: 1}},
	{"reclaim with PSETEX", "if redis.call('get', KEYS[1]) == ARGV[1] then\n  redis.call('psetex', KEYS[1], ARGV[3], ARGV[2])\n  return 1\nend\nreturn 0",
		Script{CompareAndExpire: true, OwnerArg: 1}},
	{"redsync touch", `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	else
		return 0
	end
`, Script{CompareAndExpire: true, OwnerArg: 1}},
	{"redsync touch with SET NX", `
	if redis.call("GET", KEYS[1]) == ARGV[1] then
		return redis.call("PEXPIRE", KEYS[1], ARGV[2])
	elseif redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2], "NX") then
		return 1
	else
		return 0
	end
`, Script{SetIfAbsent: true, SetTTL: true, CompareAndExpire: true, OwnerArg: 1, ValueArg: 1}},
	{"redsync old extend SET XX", `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("SET", KEYS[1], ARGV[1], "XX", "PX", ARGV[2]) else return "ERR" end`,
		Script{CompareAndExpire: true, OwnerArg: 1}},
	{"go-zero lockscript", "if redis.call(\"GET\", KEYS[1]) == ARGV[1] then\n    redis.call(\"SET\", KEYS[1], ARGV[1], \"PX\", ARGV[2])\n    return \"OK\"\nelse\n    return redis.call(\"SET\", KEYS[1], ARGV[1], \"NX\", \"PX\", ARGV[2])\nend",
		Script{SetIfAbsent: true, SetTTL: true, CompareAndExpire: true, OwnerArg: 1, ValueArg: 1}},

	// Prefix owner checks: the stored value is "clientID:token" and ARGV holds the clientID.
	{"prefix find plain separator", `local v = redis.call("get", KEYS[1]); if v and string.find(v, ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find plain", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[2], 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 2}},
	{"prefix find anchored pattern", `local v = redis.call("get", KEYS[1]) if v and string.find(v, "^" .. ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find anchored pattern not nil", `local v = redis.call("get", KEYS[1]) if v and string.find(v, "^" .. ARGV[1] .. ":", 1) ~= nil then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find pattern at 1", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1] .. ":") == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find method", `local v = redis.call("get", KEYS[1]) if v and v:find(ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find position swapped", `local v = redis.call("get", KEYS[1]) if v and 1 == string.find(v, ARGV[1] .. ":", 1, true) then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find early return", `local v = redis.call("get", KEYS[1]) if not v or string.find(v, ARGV[1] .. ":", 1, true) ~= 1 then return 0 end return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find via locals", `local v = redis.call("get", KEYS[1]) or "" local prefix = ARGV[1] .. ":"
local pos = string.find(v, prefix, 1, true)
if pos == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find GET inlined", `if string.find(redis.call("get", KEYS[1]) or "", ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find GET inlined method", `if (redis.call("get", KEYS[1]) or ''):find(ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub length operator", `local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, #ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub string.len", `local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, string.len(ARGV[1])) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub method", `local v = redis.call("get", KEYS[1]) if v and v:sub(1, #ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub len method", `local v = redis.call("get", KEYS[1]) if v and v:sub(1, ARGV[1]:len()) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub swapped", `local v = redis.call("get", KEYS[1]) if v and ARGV[1] == string.sub(v, 1, #ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub not equal early return", `local v = redis.call("get", KEYS[1]) if not v then return 0 end; if string.sub(v, 1, #ARGV[1]) ~= ARGV[1] then return 0 end; return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub swapped not equal early return", `local id = ARGV[1] local v = redis.call("get", KEYS[1]) or "" if id ~= v:sub(1, #id) then return 0 end return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix sub GET inlined", `if string.sub(redis.call("get", KEYS[1]) or "", 1, #ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix match", `local v = redis.call("get", KEYS[1]) if v and string.match(v, "^" .. ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix match separator", `local v = redis.call("get", KEYS[1]) if v and string.match(v, "^" .. ARGV[1] .. ":") then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix match method", `local v = redis.call("get", KEYS[1]) if v and v:match("^" .. ARGV[1] .. ":") then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix match negated early return", `local v = redis.call("get", KEYS[1]) or "" if not v:match("^" .. ARGV[1] .. ":") then return 0 end return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix match GET inlined", `if string.match(redis.call("get", KEYS[1]) or "", "^" .. ARGV[1] .. ":") then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix match result compared", `local v = redis.call("get", KEYS[1]) or "" if ARGV[1] ~= v:match("^" .. ARGV[1]) then return 0 end return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"GET defaulted then equality", `local v = redis.call("get", KEYS[1]) or "" if v == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"prefix find refresh", `local v = redis.call("get", KEYS[1]); if v and string.find(v, ARGV[1] .. ":", 1, true) == 1 then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`,
		Script{CompareAndExpire: true, OwnerArg: 1}},
	{"prefix sub refresh early return", `local v = redis.call("get", KEYS[1]) if not v or v:sub(1, #ARGV[1]) ~= ARGV[1] then return 0 end return redis.call("expire", KEYS[1], ARGV[2])`,
		Script{CompareAndExpire: true, OwnerArg: 1}},
	{"prefix match refresh GET inlined", `if string.match(redis.call("get", KEYS[1]) or "", "^" .. ARGV[1]) then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`,
		Script{CompareAndExpire: true, OwnerArg: 1}},

	// Prefix look-alikes: substring tests and constant prefixes identify nobody.
	{"find unanchored truth value", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find plain truth value", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1] .. ":", 1, true) then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find plain not nil", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1], 1, true) ~= nil then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find plain takes ^ literally", `local v = redis.call("get", KEYS[1]) if v and string.find(v, "^" .. ARGV[1], 1, true) then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find from position 2", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1], 2, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find at position 2", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1], 1, true) == 2 then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find anchored equals nil", `local v = redis.call("get", KEYS[1]) if string.find(v, "^" .. ARGV[1]) == nil then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"match anchored not false is always true", `local v = redis.call("get", KEYS[1]) if string.match(v, "^" .. ARGV[1]) ~= false then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find in ARGV rather than the stored value", `local v = redis.call("get", KEYS[1]) if string.find(ARGV[2], ARGV[1], 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"sub against a constant", `local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, 4) == "lock" then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"sub of a constant length against ARGV", `local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, 8) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"sub of another ARGV's length", `local v = redis.call("get", KEYS[1]) if v and string.sub(v, 1, #ARGV[2]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"sub from position 2", `local v = redis.call("get", KEYS[1]) if v and v:sub(2, #ARGV[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"sub equal early return", `local v = redis.call("get", KEYS[1]) if string.sub(v, 1, #ARGV[1]) == ARGV[1] then return 0 end return redis.call("del", KEYS[1])`,
		Script{Deletes: true}},
	{"length of the stored value", `local v = redis.call("get", KEYS[1]) if v and string.len(v) > 0 then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"match constant pattern", `local v = redis.call("get", KEYS[1]) if v and string.match(v, "^lock:") then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"match unanchored", `local v = redis.call("get", KEYS[1]) if v and v:match(ARGV[1] .. ":") then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"match after a constant prefix", `local v = redis.call("get", KEYS[1]) if v and string.match(v, "^lock:" .. ARGV[1]) then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"match result of another ARGV compared", `local v = redis.call("get", KEYS[1]) if string.match(v, "^" .. ARGV[1]) ~= ARGV[2] then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find with extra arguments", `local v = redis.call("get", KEYS[1]) if v and v:find(ARGV[1], 1, true, 1) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"defaulted GET is never false", `local v = redis.call("get", KEYS[1]) or "" if not v then return redis.call("set", KEYS[1], ARGV[1]) end return 0`,
		Script{}},
	{"prefix of another key", `local v = redis.call("get", KEYS[2]) if v and string.find(v, ARGV[1] .. ":", 1, true) == 1 then return redis.call("del", KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"find unanchored refresh", `local v = redis.call("get", KEYS[1]) if v and string.find(v, ARGV[1]) then return redis.call("pexpire", KEYS[1], ARGV[2]) end return 0`,
		Script{Expires: true}},

	// Acquires.
	{"SET NX PX", `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`,
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},
	{"SET nx lower case no TTL", `return redis.call('set', KEYS[1], ARGV[2], 'nx')`,
		Script{SetIfAbsent: true, ValueArg: 2}},
	{"EXISTS then SET and PEXPIRE", `if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[1]); redis.call('PEXPIRE', KEYS[1], ARGV[2]); return 1 end return 0`,
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},
	{"EXISTS early return then SETEX", `if redis.call('exists', KEYS[1]) == 1 then return 0 end
return redis.call('setex', KEYS[1], ARGV[2], ARGV[1])`,
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},
	{"PSETEX under absence check", `if redis.call('exists', KEYS[1]) ~= 1 then return redis.call('psetex', KEYS[1], 3000, ARGV[1]) end`,
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},
	{"SETEX alone is not set-if-absent", `return redis.call('SETEX', KEYS[1], 30, ARGV[1])`, Script{}},
	{"GET is false then SET EX", `if not redis.call('get', KEYS[1]) then return redis.call('set', KEYS[1], ARGV[1], 'EX', 30) end return false`,
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},
	{"GET == nil then SET", `local cur = redis.call('get', KEYS[1]) if cur == nil then redis.call('set', KEYS[1], ARGV[1]) return 1 end return 0`,
		Script{SetIfAbsent: true, ValueArg: 1}},
	{"SETNX then EXPIRE", `if redis.call("SETNX", KEYS[1], ARGV[1]) == 1 then redis.call("EXPIRE", KEYS[1], ARGV[2]) return 1 else return 0 end`,
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},
	{"SETNX without TTL", `return redis.call("SETNX", KEYS[1], ARGV[1])`,
		Script{SetIfAbsent: true, ValueArg: 1}},
	{"token lock", `if redis.call('EXISTS', KEYS[1]) == 0 then local t = redis.call('INCR', KEYS[2]); redis.call('SET', KEYS[1], t, 'PX', ARGV[1]); return t end return 0`,
		Script{SetIfAbsent: true, SetTTL: true, Token: true}},
	{"token stored then read back", `if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('SET', KEYS[1], redis.call('INCR', KEYS[2]), 'PX', ARGV[1])
  return redis.call('GET', KEYS[1])
end
return 0`, Script{SetIfAbsent: true, SetTTL: true, Token: true}},
	{"redisson lock", `if (redis.call('exists', KEYS[1]) == 0) then
redis.call('hincrby', KEYS[1], ARGV[2], 1);
redis.call('pexpire', KEYS[1], ARGV[1]);
return nil;
end;
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
redis.call('hincrby', KEYS[1], ARGV[2], 1);
redis.call('pexpire', KEYS[1], ARGV[1]);
return nil;
end;
return redis.call('pttl', KEYS[1]);`, Script{SetIfAbsent: true, SetTTL: true, CompareAndExpire: true, OwnerArg: 2, ValueArg: 2}},
	{"bsm obtain", `-- obtain.lua: arguments => [value, tokenLen, ttl]
local function pexpire(ttl)
	-- Update keys ttls.
	for _, key in ipairs(KEYS) do
		redis.call("pexpire", key, ttl)
	end
end

local function canOverrideKeys() 
	local offset = tonumber(ARGV[2])

	for _, key in ipairs(KEYS) do
		if redis.call("getrange", key, 0, offset-1) ~= string.sub(ARGV[1], 1, offset) then
			return false
		end
	end
	return true
end

local setArgs = {}
for _, key in ipairs(KEYS) do
	table.insert(setArgs, key)
	table.insert(setArgs, ARGV[1])
end

if redis.call("msetnx", unpack(setArgs)) ~= 1 then
	if canOverrideKeys() == false then
		return false
	end
	redis.call("mset", unpack(setArgs))
end

pexpire(ARGV[3])
return redis.status_reply("OK")`, Script{SetIfAbsent: true, SetTTL: true}},
	{"valkey server.call", `return server.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2])`,
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},
	{"shebang", "#!lua flags=no-writes\nreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 100)",
		Script{SetIfAbsent: true, SetTTL: true, ValueArg: 1}},

	// Unguarded commands and look-alikes.
	{"plain DEL", `return redis.call('DEL', KEYS[1])`, Script{Deletes: true}},
	{"plain PEXPIRE", `return redis.call('PEXPIRE', KEYS[1], ARGV[1])`, Script{Expires: true}},
	{"watchdog without owner check", "if (redis.call('exists', KEYS[1]) == 1) then redis.call('pexpire', KEYS[1], ARGV[1]); return 1; else return 0; end;",
		Script{Expires: true}},
	{"GET only", `return redis.call('GET', KEYS[1])`, Script{}},
	{"bsm pttl", `local values = redis.call("mget", unpack(KEYS))
for i, _ in ipairs(KEYS) do
	if values[i] ~= ARGV[1] then
		return false
	end
end
local minTTL = 0
for _, key in ipairs(KEYS) do
	local ttl = redis.call("pttl", key)
	if ttl > 0 and (minTTL == 0 or ttl < minTTL) then
		minTTL = ttl
	end
end
return minTTL`, Script{}},
	{"DEL guarded by constant", `if redis.call('GET', KEYS[1]) == 'locked' then return redis.call('DEL', KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"DEL guarded by other key", `if redis.call('GET', KEYS[2]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`,
		Script{Deletes: true}},
	{"DEL guarded by concatenation", `if redis.call('GET', KEYS[1]) == ARGV[1] .. ':x' then return redis.call('DEL', KEYS[1]) end`,
		Script{Deletes: true}},
	{"DEL after the guarded block", `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], 10) end return redis.call('DEL', KEYS[1])`,
		Script{CompareAndExpire: true, Deletes: true, OwnerArg: 1}},
	{"DEL in else of equality", `if redis.call('GET', KEYS[1]) == ARGV[1] then return 0 else return redis.call('DEL', KEYS[1]) end`,
		Script{Deletes: true}},
	{"inverted guard", `if redis.call("get", KEYS[1]) ~= ARGV[1] then redis.call("del", KEYS[1]) end return 1`,
		Script{Deletes: true}},
	{"equality early return", `if redis.call("get", KEYS[1]) == ARGV[1] then return 0 end return redis.call("del", KEYS[1])`,
		Script{Deletes: true}},
	{"negated guard without return", `if redis.call("get", KEYS[1]) ~= ARGV[1] then redis.call("set", KEYS[2], 1) end return redis.call("del", KEYS[1])`,
		Script{Deletes: true}},
	{"disjunction does not guard", `if redis.call("get", KEYS[1]) == ARGV[1] or ARGV[2] == "force" then return redis.call("del", KEYS[1]) end`,
		Script{Deletes: true}},
	{"guard reassigned", `local v = ARGV[1] v = 'x' if redis.call("get", KEYS[1]) == v then return redis.call("del", KEYS[1]) end`,
		Script{Deletes: true}},
	{"guard inside a function", `local function owned() if redis.call("get", KEYS[1]) ~= ARGV[1] then return false end end
return redis.call("del", KEYS[1])`, Script{Deletes: true}},
	{"rate limiter", `local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
if c > tonumber(ARGV[2]) then return 0 end
return 1`, Script{}},
	{"counter returned", `local c = redis.call('INCR', KEYS[1]) redis.call('EXPIRE', KEYS[1], 60) return c`,
		Script{Token: true}},
	{"plain SET then PEXPIRE", `redis.call('SET', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1`, Script{}},
	{"SET XX is not set-if-absent", `return redis.call('SET', KEYS[1], ARGV[1], 'XX', 'PX', ARGV[2])`, Script{}},
	{"NX from ARGV is unknown", `return redis.call('SET', KEYS[1], ARGV[1], ARGV[2])`, Script{}},

	// Lexical traps.
	{"commented-out guard", `-- if redis.call("get", KEYS[1]) == ARGV[1] then
return redis.call("del", KEYS[1])`, Script{Deletes: true}},
	{"block comment", `--[[ return redis.call("del", KEYS[1]) ]] if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) end`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"level-2 block comment", `--[==[ ]] return redis.call("del", KEYS[1]) ]=] ]==] return 0`, Script{}},
	{"long string", `local s = [[ if redis.call("get", KEYS[1]) == ARGV[1] then ]] return redis.call("del", KEYS[1])`,
		Script{Deletes: true}},
	{"escaped quotes", `local s = "\" if redis.call('get', KEYS[1]) == ARGV[1] then \\" return redis.call('del', KEYS[1])`,
		Script{Deletes: true}},
	{"long string command name", `if redis.call([[GET]], KEYS[1]) == ARGV[1] then return redis.call([==[DEL]==], KEYS[1]) end`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"redis as a field", `local t = {} t.redis.call('DEL', KEYS[1])`, Script{}},
	{"unterminated string", `return redis.call("del, KEYS[1])`, Script{}},
	{"unterminated string then code", "local s = 'abc\nreturn redis.call('del', KEYS[1])", Script{Deletes: true}},
	{"unterminated comment", `--[[ return redis.call("del", KEYS[1])`, Script{}},
	{"unterminated long string", `local s = [==[ return redis.call("del", KEYS[1])`, Script{}},
	{"unclosed if", `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1])`,
		Script{CompareAndDelete: true, OwnerArg: 1}},
	{"stray ends", `end end until else elseif then return redis.call("del", KEYS[1])`, Script{Deletes: true}},
	{"unbalanced brackets", `if (redis.call("get", KEYS[1]] == ARGV[1] then ) return redis.call("del", KEYS[1]) }`, Script{Deletes: true}},
	{"keyword assigned (fuzz: looped forever)", "if (\"\"or= 0 or", Script{}},
	{"empty", ``, Script{}},
	{"garbage", "\x00\xff(( ]] -- \n == ~= [=[ ", Script{}},
	{"not Lua", `SELECT * FROM locks WHERE id = ?`, Script{}},
	{"redis.call without command", `redis.call() redis.call(KEYS[1]) redis.call`, Script{}},
}

func TestClassify(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Classify(c.src); got != c.want {
				t.Errorf("Classify(%q)\n got %+v\nwant %+v", c.src, got, c.want)
			}
		})
	}
}
