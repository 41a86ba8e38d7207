package lua

import "strings"

type siteKind uint8

const (
	sWrite siteKind = iota + 1 // creates or overwrites the key
	sDelete
	sExpire
)

// site is one redis.call that matters to a lock, with the guards around it.
type site struct {
	kind   siteKind
	key    string
	owner  int  // ARGV index of the owner comparison guarding it, -1 if none
	absent bool // guarded by a check that the key is absent
	setNX  bool // a SET-like write that only happens if the key is absent
	setter bool // a SET-like write, which a preceding absence check makes a set-if-absent
	ttl    bool // the write itself gives the key a TTL
	value  int  // ARGV index of the written value, 0 if not an ARGV
}

var siteKinds = map[string]siteKind{
	"SET": sWrite, "SETNX": sWrite, "SETEX": sWrite, "PSETEX": sWrite, "MSET": sWrite, "MSETNX": sWrite,
	"HSET": sWrite, "HSETNX": sWrite, "HMSET": sWrite, "HINCRBY": sWrite, "INCR": sWrite, "INCRBY": sWrite,
	"DEL": sDelete, "UNLINK": sDelete, "GETDEL": sDelete,
	"EXPIRE": sExpire, "PEXPIRE": sExpire, "EXPIREAT": sExpire, "PEXPIREAT": sExpire,
}

func (s *scanner) site(i int) {
	v, _, ok := s.call(i, 0)
	args, kind := s.args, siteKinds[v.cmd]
	if !ok || kind == 0 {
		return
	}
	st := site{kind: kind, key: v.key, owner: -1}
	for k := len(s.facts) - 1; k >= 0; k-- {
		if f := s.facts[k]; keysMatch(f.key, v.key) {
			if f.owner && st.owner < 0 {
				st.owner = f.arg
			}
			st.absent = st.absent || !f.owner
		}
	}
	switch v.cmd {
	case "SETNX", "MSETNX", "HSETNX":
		st.setNX = true
	case "SETEX", "PSETEX":
		st.ttl, st.setter = true, true
	case "SET", "MSET", "HSET", "HMSET", "HINCRBY":
		st.setter = true
	case "INCR", "INCRBY":
		s.counters[v.key] = true
	}
	value := 1 // the argument holding the stored value
	if v.cmd == "SETEX" || v.cmd == "PSETEX" {
		value = 2 // SETEX key ttl value
	}
	if v.cmd == "SET" {
		for _, a := range args[min(2, len(args)):] {
			switch opt := strings.ToUpper(a.str); {
			case a.kind != vStr:
			case opt == "NX":
				st.setNX = true
			case opt == "EX" || opt == "PX" || opt == "EXAT" || opt == "PXAT":
				st.ttl = true
			}
		}
		if len(args) > 1 && s.isCounter(args[1]) {
			s.counters[v.key] = true
		}
	}
	if len(args) > value && args[value].kind == vArgv {
		st.value = args[value].n
	}
	s.sites = append(s.sites, st)
}

// keySet answers "was a matching key seen" in constant time.
type keySet struct {
	any, all bool // any key seen; anyKey seen
	keys     map[string]bool
}

func (k *keySet) add(key string) {
	if k.keys == nil {
		k.keys = make(map[string]bool)
	}
	k.any, k.all = true, k.all || key == anyKey
	k.keys[key] = true
}

func (k *keySet) has(key string) bool {
	if key == anyKey {
		return k.any
	}
	return k.all || k.keys[key]
}

func (s *scanner) result() Script {
	out := Script{Token: s.token}
	var written, acquired keySet
	owner := func(arg int) {
		if out.OwnerArg == 0 {
			out.OwnerArg = arg
		}
	}
	for _, st := range s.sites {
		switch {
		case st.kind == sWrite:
			written.add(st.key)
			if st.setNX || st.setter && st.absent {
				acquired.add(st.key)
				out.SetIfAbsent = true
				out.SetTTL = out.SetTTL || st.ttl
				if out.ValueArg == 0 {
					out.ValueArg = st.value
				}
			} else if st.owner >= 0 && st.ttl {
				out.CompareAndExpire = true // re-entrant refresh: SET key token PX ttl
				owner(st.owner)
			}
		case st.owner >= 0 && st.kind == sDelete:
			out.CompareAndDelete = true
			owner(st.owner)
		case st.owner >= 0 && st.kind == sExpire:
			out.CompareAndExpire = true
			owner(st.owner)
		case st.kind == sDelete:
			out.Deletes = true
		}
	}
	// An unguarded EXPIRE of a key the script itself writes completes that
	// write (SET then PEXPIRE); only one of a key it never writes is a
	// refresh of somebody's lock.
	for _, st := range s.sites {
		if st.kind != sExpire || st.owner >= 0 {
			continue
		}
		if written.has(st.key) {
			out.SetTTL = out.SetTTL || acquired.has(st.key)
		} else {
			out.Expires = true
		}
	}
	return out
}
