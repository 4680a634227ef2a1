package pool

import "unsafe"

// WorkersStarted returns how many worker goroutines p has started: what
// TestNoGoroutinePerTaskBelowCapacity counts, without the goroutines the
// runtime starts for timers.
func WorkersStarted[T any](p *FuncPool[T]) uint64 { return p.e.WorkersStarted() }

// Reopen reopens a closed pool once its previous life has ended: the
// engine's Reopen, which package ants offers as Reboot; the engine's
// tests of it run here, on a Pool.
func Reopen(p *Pool) { p.e.Reopen() }

// SetTimings switches p's timings on or off at run time: the engine can,
// and its tests of that run here (a Pool's timings are otherwise chosen
// at New, by WithTimings).
func SetTimings(p *Pool, on bool) { p.e.SetTimings(on) }

// SetFuncTimings is SetTimings for a FuncPool.
func SetFuncTimings[T any](p *FuncPool[T], on bool) { p.e.SetTimings(on) }

// CloseDone closes p and returns the channel closed when its life ends.
func CloseDone(p *Pool) <-chan struct{} { return p.e.Close() }

// GateClosed reads whether p's gate is closed, without the engine's lock,
// as ants' IsClosed does: what a Reopen that returned must already show.
func GateClosed(p *Pool) bool { return p.e.Closed() }

// KeyShardSize is the size of a Keyed's shard, in bytes.
func KeyShardSize() uintptr { return unsafe.Sizeof(keyShard[string]{}) }
