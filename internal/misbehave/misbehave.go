// Package misbehave lists what a user callback may do instead of
// returning, for the tests that hold every callback of pool, actorpool and
// autoscale to its contract: a callback may panic or call runtime.Goexit.
package misbehave

import (
	"context"
	"log/slog"
	"runtime"
)

// Way is one way a callback misbehaves.
type Way struct {
	Name string
	Do   func()
}

// Ways are the ways every callback is tried with.
var Ways = []Way{
	{"panics", func() { panic("callback panicked") }},
	{"calls Goexit", runtime.Goexit},
}

// Handler returns a slog.Handler that calls do on every record: a logger
// that misbehaves.
func Handler(do func()) slog.Handler { return handler{do} }

type handler struct{ do func() }

func (h handler) Enabled(context.Context, slog.Level) bool  { return true }
func (h handler) Handle(context.Context, slog.Record) error { h.do(); return nil }
func (h handler) WithAttrs([]slog.Attr) slog.Handler        { return h }
func (h handler) WithGroup(string) slog.Handler             { return h }
