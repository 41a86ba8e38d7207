// Package leaderlease takes a leader's lease in one method and renews it in
// another, on a ticker, with no owner check: after a pause longer than the
// lease, the old leader extends the new leader's lease and both lead.
package leaderlease

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"testcases/unsafedel/leaderlease/cache"
)

const (
	masterKey = "cluster-master-lock"
	jobKey    = "job-leader"
	statsKey  = "stats"
	onceKey   = "migrated"
	shardKey  = "shard:" + "7"
)

type Cluster struct {
	rdb *redis.Client
	id  string
	ttl time.Duration
}

func (c *Cluster) lockMaster() (bool, error) {
	return cache.SetNX(masterKey, c.id, c.ttl)
}

func (c *Cluster) updateMaster() error {
	_, err := cache.Expire(masterKey, c.ttl) // want `lock refreshed in cache.Expire with EXPIRE without an owner check: it can extend another holder.s lock`
	return err
}

func (c *Cluster) Run() {
	for range time.Tick(time.Second) {
		if ok, err := c.lockMaster(); err == nil && ok {
			c.lead()
		}
		c.updateMaster()
	}
}

func (c *Cluster) lead() {}

func (c *Cluster) takeShard(ctx context.Context) bool {
	ok, err := c.rdb.SetNX(ctx, shardKey, c.id, c.ttl).Result()
	return err == nil && ok
}

func (c *Cluster) keepShard(ctx context.Context) {
	c.rdb.Expire(ctx, shardKey, c.ttl) // want `lock refreshed with EXPIRE without an owner check`
}

// The job leader's lease is renewed by a script that checks the owner.
var renew = redis.NewScript(`if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`)

func (c *Cluster) takeJob(ctx context.Context) bool {
	ok, err := c.rdb.SetNX(ctx, jobKey, c.id, c.ttl).Result()
	return err == nil && ok
}

func (c *Cluster) renewJob(ctx context.Context) error {
	return renew.Run(ctx, c.rdb, []string{jobKey}, c.id, c.ttl.Milliseconds()).Err()
}

// Silent: an EXPIRE of a key nothing sets if absent, and one of a marker
// kept a day.

func (c *Cluster) touchStats(ctx context.Context) {
	c.rdb.Expire(ctx, statsKey, time.Minute)
}

func (c *Cluster) migrate(ctx context.Context) error {
	first, err := c.rdb.SetNX(ctx, onceKey, 1, 24*time.Hour).Result()
	if err != nil || !first {
		return err
	}
	return nil
}

func (c *Cluster) keepMigrated(ctx context.Context) {
	c.rdb.Expire(ctx, onceKey, 48*time.Hour)
}
