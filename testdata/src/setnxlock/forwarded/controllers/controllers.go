// Package controllers runs a lottery draw under the user's lock.
package controllers

import "testcases/setnxlock/forwarded/utils"

func draw(int) {}

func Lucky(uid int) {
	if !utils.LockLucky(uid) { // want `lock value is a constant in utils.LockLucky`
		return
	}
	defer utils.UnlockLucky(uid)
	draw(uid)
}
