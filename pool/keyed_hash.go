//go:build go1.24

package pool

import "hash/maphash"

// keyShards is how many locks a Keyed spreads its keys over: submitters
// and turns of keys in different shards never wait for each other.
const keyShards = 64

func keyHash[K comparable](seed maphash.Seed, id K) uint64 { return maphash.Comparable(seed, id) }
