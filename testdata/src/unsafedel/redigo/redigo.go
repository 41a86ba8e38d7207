// Package redigo holds redigo acquisitions and releases.
package redigo

import (
	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
)

func work() {}

func plainDel(pool *redis.Pool, id string) error {
	c := pool.Get()
	defer c.Close()
	token := uuid.NewString()
	key := "lock:" + id
	if _, err := redis.String(c.Do("SET", key, token, "NX", "EX", 10)); err != nil {
		return err
	}
	work()
	_, err := c.Do("DEL", key) // want `lock released with plain DEL`
	return err
}

func getCompareDel(c redis.Conn, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	reply, err := c.Do("SET", key, token, "NX", "PX", 10000)
	if err != nil || reply == nil {
		return
	}
	work()
	if v, _ := redis.String(c.Do("GET", key)); v == token {
		c.Do("DEL", key) // want `lock released by GET, compare, then DEL`
	}
}

var unlock = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func scriptDo(c redis.Conn, id string) {
	token := uuid.NewString()
	key := "lock:" + id
	if ok, _ := redis.String(c.Do("SET", key, token, "NX", "EX", 10)); ok != "OK" {
		return
	}
	defer unlock.Do(c, key, token)
	work()
}

func deferredDel(pool *redis.Pool, id string) {
	c := pool.Get()
	defer c.Close()
	token := uuid.NewString()
	n, err := redis.Int(c.Do("SETNX", "lock:"+id, token))
	if err != nil || n == 0 {
		return
	}
	defer c.Do("DEL", "lock:"+id) // want `lock released with plain DEL`
	work()
}
