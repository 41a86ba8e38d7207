// Package utils takes per-user locks through datasource's command wrapper.
package utils

import (
	"fmt"

	"testcases/setnxlock/forwarded/datasource"
)

func lockKey(uid int) string { return fmt.Sprintf("lucky_lock_%d", uid) }

// LockLucky takes the user's lock, storing a constant.
func LockLucky(uid int) bool {
	rs, _ := datasource.Cache().Do("SET", lockKey(uid), 1, "EX", 3, "NX")
	return rs == "OK"
}

// UnlockLucky releases the user's lock.
func UnlockLucky(uid int) {
	datasource.Cache().Do("DEL", lockKey(uid))
}
