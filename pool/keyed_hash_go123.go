//go:build !go1.24

package pool

import "hash/maphash"

// keyShards is 1 before Go 1.24, which has no hash for a comparable type
// parameter (maphash.Comparable): every key shares one lock.
const keyShards = 1

func keyHash[K comparable](maphash.Seed, K) uint64 { return 0 }
