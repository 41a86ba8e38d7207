local v = redis.call('GET', KEYS[1])
if v ~= ARGV[1] then
  return 0
end
return redis.call('DEL', KEYS[1])
