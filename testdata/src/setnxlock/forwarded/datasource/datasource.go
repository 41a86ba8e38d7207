// Package datasource wraps redigo: callers never see redigo's Do, only this one.
package datasource

import (
	"log"

	"github.com/gomodule/redigo/redis"
)

// RedisConn runs commands on a pool.
type RedisConn struct{ pool *redis.Pool }

// Do sends one command and logs failures.
func (rds *RedisConn) Do(commandName string, args ...interface{}) (interface{}, error) {
	conn := rds.pool.Get()
	defer conn.Close()
	reply, err := conn.Do(commandName, args...)
	if err != nil {
		log.Println("redis:", err)
	}
	return reply, err
}

var cache *RedisConn

// Cache returns the shared connection.
func Cache() *RedisConn { return cache }
