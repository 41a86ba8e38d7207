// Package cancelled takes a job's lock in Start and deletes it in Cancel or
// in an operator's force-unlock: releases of the lock's fixed key, though no
// function holds both ends.
package cancelled

import (
	"time"

	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
)

const (
	closeLock  = "app:lock:auto-close"
	closeQueue = "app:queue:auto-close"
	statsCache = "app:cache:stats"
)

var pool *redis.Pool

type AutoClose struct{ token string }

func (t *AutoClose) Start() {
	c := pool.Get()
	defer c.Close()
	t.token = uuid.NewString()
	reply, err := c.Do("SET", closeLock, t.token, "NX", "EX", 60)
	if err != nil || reply == nil {
		return
	}
	for range time.Tick(time.Second) {
		c.Do("RPOP", closeQueue)
	}
}

func (t *AutoClose) Cancel() {
	c := pool.Get()
	defer c.Close()
	c.Do("DEL", closeLock) // want `lock released with plain DEL`
}

func ForceUnlock() {
	c := pool.Get()
	defer c.Close()
	c.Do("DEL", closeLock) // want `lock released with plain DEL`
}

// Silent: the owner's compare-and-delete, and a cache key nothing locks.

var unlock = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func (t *AutoClose) Stop() {
	c := pool.Get()
	defer c.Close()
	unlock.Do(c, closeLock, t.token)
}

func ClearStats() {
	c := pool.Get()
	defer c.Close()
	c.Do("DEL", statsCache)
}
