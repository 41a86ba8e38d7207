// Package lock is a lock object over package client: its Lock inherits the
// client's SETNX then EXPIRE, reported here, where the type pairs Lock with
// Unlock by the key its key method builds.
package lock

import (
	"context"
	"errors"

	"testcases/setnxlock/expirewrap/client"
)

var ErrBusy = errors.New("busy")

type Lock struct {
	c           *client.Client
	name, token string
}

func New(c *client.Client, name, token string) *Lock {
	return &Lock{c: c, name: name, token: token}
}

func (l *Lock) key() string { return "lock:" + l.name }

func (l *Lock) Lock(ctx context.Context) error {
	ok, err := l.c.SetNX(ctx, l.key(), l.token, 10) // want `SETNX then EXPIRE is not atomic in client.Client.SetNX`
	if err != nil {
		return err
	}
	if !ok {
		return ErrBusy
	}
	return nil
}

func (l *Lock) Unlock(ctx context.Context) error {
	return l.c.Release(ctx, l.key(), l.token)
}
