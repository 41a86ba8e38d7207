// Package redigo holds writes under a redigo lock: SET … NX PX through
// redis.String, whose ErrNil says the key was taken.
package redigo

import (
	"database/sql"
	"fmt"

	"github.com/gomodule/redigo/redis"
	"github.com/google/uuid"
)

var unlock = redis.NewScript(1, `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`)

func unfenced(c redis.Conn, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:cart:%d", id)
	token := uuid.NewString()
	if _, err := redis.String(c.Do("SET", key, token, "NX", "PX", 15000)); err != nil {
		return err // redis.ErrNil: held by someone else
	}
	defer unlock.Do(c, key, token)
	_, err := db.Exec(`UPDATE carts SET checked_out = true WHERE id = $1`, id) // want `unfenced write under a TTL lock`
	return err
}

func conditional(c redis.Conn, db *sql.DB, id int64) error {
	key := fmt.Sprintf("lock:cart:%d", id)
	token := uuid.NewString()
	if _, err := redis.String(c.Do("SET", key, token, "NX", "PX", 15000)); err != nil {
		return err
	}
	defer unlock.Do(c, key, token)
	res, err := db.Exec(`UPDATE carts SET checked_out = true WHERE id = $1 AND checked_out = false`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("cart %d already checked out", id)
	}
	return nil
}
