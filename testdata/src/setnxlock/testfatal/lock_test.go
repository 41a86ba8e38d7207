package testfatal

import (
	"context"
	"testing"

	"github.com/redis/go-redis/v9"
)

func TestTryLock(t *testing.T) {
	ctx := context.Background()
	l := New(redis.NewClient(&redis.Options{}), "test:lock")
	if ok, _ := l.TryLock(ctx); !ok {
		t.Fatalf("TryLock failed")
	}
	defer l.Unlock(ctx)
}

func TestSkip(t *testing.T) {
	ctx := context.Background()
	l := New(redis.NewClient(&redis.Options{}), "test:skip")
	ok, err := l.TryLock(ctx)
	if err != nil {
		t.Skip("no redis")
	}
	if !ok {
		t.FailNow()
	}
	defer l.Unlock(ctx)
}
