// Package pinned imports every client library lockvet's tables name, so that
// the test module pins a version of each and internal/clients can check its
// rows against the real code.
package pinned

import (
	_ "github.com/bsm/redislock"
	_ "github.com/garyburd/redigo/redis"
	_ "github.com/go-redis/redis"
	_ "github.com/go-redis/redis/v7"
	_ "github.com/go-redis/redis/v8"
	_ "github.com/go-redis/redis/v9"
	_ "github.com/go-redsync/redsync/v4"
	_ "github.com/gomodule/redigo/redis"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/redis/rueidis/rueidislock"
	_ "github.com/zeromicro/go-zero/core/stores/redis"
	_ "go.etcd.io/etcd/client/v3/concurrency"
)
