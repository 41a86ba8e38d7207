// Package service takes its locks through package client.
package service

import (
	"context"
	"errors"

	"github.com/google/uuid"

	"testcases/setnxlock/expirewrap/client"
	"testcases/setnxlock/expirewrap/lock"
)

var errBusy = errors.New("busy")

func work() {}

func Run(ctx context.Context, c *client.Client, job string) error {
	token := uuid.NewString()
	ok, err := c.SetNX(ctx, "lock:job:"+job, token, 10) // want `SETNX then EXPIRE is not atomic in client.Client.SetNX`
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer c.Release(ctx, "lock:job:"+job, token)
	work()
	return nil
}

// Also through client, with the TTL in the SET: nothing to report.
func RunEx(ctx context.Context, c *client.Client, job string) error {
	token := uuid.NewString()
	ok, err := c.SetNXEx(ctx, "lock:job:"+job, token, 10)
	if err != nil {
		return err
	}
	if !ok {
		return errBusy
	}
	defer c.Release(ctx, "lock:job:"+job, token)
	work()
	return nil
}

func RunLocked(ctx context.Context, l *lock.Lock) error {
	if err := l.Lock(ctx); err != nil { // reported in lock, where the type is declared
		return err
	}
	defer l.Unlock(ctx)
	work()
	return nil
}
