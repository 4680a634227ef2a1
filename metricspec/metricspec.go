// Package metricspec is the one list of the metrics poolkit's exporters
// publish (docs/metrics.md): names, types, units and help, and how each is
// read from a pool, an autoscaler, an actor system or a router. The
// Prometheus collector and the OpenTelemetry instruments both range over
// it, so that the two exporters cannot drift apart; an exporter for
// another system can range over it too. It stands above pool, actorpool
// and autoscale, and nothing in them imports it.
package metricspec

import (
	"reflect"

	"github.com/poolkit/poolkit/actorpool"
	"github.com/poolkit/poolkit/autoscale"
	"github.com/poolkit/poolkit/pool"
)

// Kind is a metric's type.
type Kind int

// The kinds of metric.
const (
	Gauge Kind = iota
	Counter
	Histogram
)

// Metric describes one metric.
type Metric struct {
	// Prom is the Prometheus name, with its unit and, for a counter, the
	// _total suffix.
	Prom string
	// OTel is the OpenTelemetry instrument name; OTelUnit its unit (UCUM,
	// or an annotation in braces). The OpenTelemetry Prometheus exporter
	// translates OTel and OTelUnit to Prom.
	OTel, OTelUnit string
	Kind           Kind
	Help           string
	// Label is the name of the metric's one label besides its subject's
	// (reason, cause), or "".
	Label string
}

// Subject is a kind of thing that is watched.
type Subject struct {
	// Label is the label that carries the name the thing was watched
	// under.
	Label   string
	Metrics []*Metric
}

// Sources: what the exporters watch. poolkit's types satisfy them:
// *pool.Pool and *pool.FuncPool[T] are PoolSources, *autoscale.Controller
// an AutoscalerSource, *actorpool.System a SystemSource, *actorpool.Router
// a RouterSource.
type (
	PoolSource       interface{ Stats() pool.Stats }
	AutoscalerSource interface{ Stats() autoscale.Stats }
	SystemSource     interface{ Stats() actorpool.Stats }
	RouterSource     interface{ Stats() actorpool.RouterStats }
)

// IsNil reports whether a source is nil or holds a nil pointer (or map,
// func, ...): a *pool.Pool left nil by a failed pool.New would otherwise be
// accepted, and panic at every collection, far from the call that passed
// it.
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

func gauge(prom, otel, unit, help string) *Metric {
	return &Metric{Prom: prom, OTel: otel, OTelUnit: unit, Kind: Gauge, Help: help}
}

func counter(prom, otel, unit, help string) *Metric {
	return &Metric{Prom: prom, OTel: otel, OTelUnit: unit, Kind: Counter, Help: help}
}

func histogram(prom, otel, help string) *Metric {
	return &Metric{Prom: prom, OTel: otel, OTelUnit: "s", Kind: Histogram, Help: help}
}

func labelled(m *Metric, label string) *Metric { m.Label = label; return m }

// The pool's metrics.
var (
	PoolCapacity  = gauge("poolkit_pool_capacity", "poolkit.pool.capacity", "{worker}", "The most tasks that may run at once.")
	PoolWorkers   = gauge("poolkit_pool_workers", "poolkit.pool.workers", "{worker}", "Worker goroutines alive, idle ones included.")
	PoolIdle      = gauge("poolkit_pool_idle_workers", "poolkit.pool.idle_workers", "{worker}", "Parked workers.")
	PoolRunning   = gauge("poolkit_pool_running_tasks", "poolkit.pool.running_tasks", "{task}", "Tasks executing now.")
	PoolWaiting   = gauge("poolkit_pool_waiting_tasks", "poolkit.pool.waiting_tasks", "{task}", "Accepted tasks not started, plus callers blocked in Submit.")
	PoolKeys      = gauge("poolkit_pool_keys", "poolkit.pool.keys", "{key}", "Keys of the pool's Keyed with tasks waiting or running.")
	PoolKeyed     = gauge("poolkit_pool_keyed_waiting_tasks", "poolkit.pool.keyed_waiting_tasks", "{task}", "Keyed tasks accepted and not started, in their keys' queues.")
	PoolSubmitted = counter("poolkit_pool_submitted_tasks_total", "poolkit.pool.submitted_tasks", "{task}", "Accepted submissions.")
	PoolCompleted = counter("poolkit_pool_completed_tasks_total", "poolkit.pool.completed_tasks", "{task}", "Tasks that finished: returned, panicked or exited.")
	PoolRejected  = labelled(counter("poolkit_pool_rejected_tasks_total", "poolkit.pool.rejected_tasks", "{task}",
		"Refused submissions, by reason: overload, closed or context."), "reason")
	PoolPanicked = counter("poolkit_pool_panicked_tasks_total", "poolkit.pool.panicked_tasks", "{task}", "Tasks that panicked; they are counted as completed too.")
	PoolReturned = counter("poolkit_pool_returned_tasks_total", "poolkit.pool.returned_tasks", "{task}", "Accepted tasks handed back unrun by ShutdownNow.")
	PoolExpired  = counter("poolkit_pool_expired_tasks_total", "poolkit.pool.expired_tasks", "{task}", "Tasks with a future or a scheduler that never started: their context ended, or their wait passed the max wait, first; counted as completed too.")
	PoolShed     = counter("poolkit_pool_shed_tasks_total", "poolkit.pool.shed_tasks", "{task}", "Scheduled tasks given up for a more urgent one when the pool was full; counted as completed too.")
	PoolResizes  = counter("poolkit_pool_resizes_total", "poolkit.pool.resizes", "{resize}", "Resize and Tune calls that changed the capacity.")
	PoolWait     = histogram("poolkit_pool_task_wait_seconds", "poolkit.pool.task_wait", "Queue wait of tasks: acceptance to start.")
	PoolService  = histogram("poolkit_pool_task_duration_seconds", "poolkit.pool.task_duration", "Service time of tasks: start to end.")
)

// The autoscaler's metrics.
var (
	AutoTarget    = gauge("poolkit_autoscaler_target_workers", "poolkit.autoscaler.target_workers", "{worker}", "The size the controller set at its last tick.")
	AutoMin       = gauge("poolkit_autoscaler_min_workers", "poolkit.autoscaler.min_workers", "{worker}", "The controller's floor.")
	AutoMax       = gauge("poolkit_autoscaler_max_workers", "poolkit.autoscaler.max_workers", "{worker}", "The controller's ceiling.")
	AutoKnee      = gauge("poolkit_autoscaler_knee_workers", "poolkit.autoscaler.knee_workers", "{worker}", "The size past which added workers bought nothing; 0 when none is known.")
	AutoDecisions = labelled(counter("poolkit_autoscaler_decisions_total", "poolkit.autoscaler.decisions", "{decision}",
		"Controller ticks, by the cause of their decision."), "cause")
	AutoResizes = counter("poolkit_autoscaler_resizes_total", "poolkit.autoscaler.resizes", "{resize}", "Resizes the controller made.")
)

// The actor system's metrics.
var (
	ActorWorkers     = gauge("poolkit_actor_workers", "poolkit.actor.workers", "{worker}", "Actors that may run at once.")
	ActorLive        = gauge("poolkit_actor_live_actors", "poolkit.actor.live_actors", "{actor}", "Live actors.")
	ActorMailbox     = gauge("poolkit_actor_mailbox_messages", "poolkit.actor.mailbox_messages", "{message}", "User messages in the live actors' mailboxes.")
	ActorSpawned     = counter("poolkit_actor_spawned_total", "poolkit.actor.spawned", "{actor}", "Actors spawned.")
	ActorStopped     = counter("poolkit_actor_stopped_total", "poolkit.actor.stopped", "{actor}", "Actors stopped.")
	ActorDeadLetters = counter("poolkit_actor_dead_letters_total", "poolkit.actor.dead_letters", "{message}", "Accepted messages never handled: their actor stopped.")
	ActorRefused     = labelled(counter("poolkit_actor_refused_messages_total", "poolkit.actor.refused_messages", "{message}",
		"Refused sends, by reason: mailbox_full or other."), "reason")
	ActorPanics   = counter("poolkit_actor_panics_total", "poolkit.actor.panics", "{panic}", "Handler panics.")
	ActorRestarts = counter("poolkit_actor_restarts_total", "poolkit.actor.restarts", "{restart}", "Restarts by supervision.")
)

// The router's metrics.
var (
	RouterWorkers   = gauge("poolkit_router_workers", "poolkit.router.workers", "{worker}", "Live worker actors.")
	RouterForwarded = counter("poolkit_router_forwarded_messages_total", "poolkit.router.forwarded_messages", "{message}", "Messages a worker accepted.")
	RouterUnhandled = counter("poolkit_router_unhandled_messages_total", "poolkit.router.unhandled_messages", "{message}", "Messages the router passed to no worker: refused, or dead letters rerouted from a removed worker.")
	RouterRestarts  = counter("poolkit_router_restarts_total", "poolkit.router.restarts", "{restart}", "Stopped workers replaced.")
	RouterWait      = histogram("poolkit_router_mailbox_wait_seconds", "poolkit.router.mailbox_wait", "Wait of messages in a worker's mailbox.")
	RouterHandling  = histogram("poolkit_router_handling_seconds", "poolkit.router.handling", "Handling of messages by a worker.")
)

// The subjects, with their metrics in a fixed order.
var (
	Pool = Subject{Label: "pool", Metrics: []*Metric{PoolCapacity, PoolWorkers, PoolIdle, PoolRunning, PoolWaiting,
		PoolKeys, PoolKeyed, PoolSubmitted, PoolCompleted, PoolRejected, PoolPanicked, PoolReturned, PoolExpired, PoolShed, PoolResizes, PoolWait, PoolService}}
	Autoscaler = Subject{Label: "pool", Metrics: []*Metric{AutoTarget, AutoMin, AutoMax, AutoKnee, AutoDecisions, AutoResizes}}
	System     = Subject{Label: "system", Metrics: []*Metric{ActorWorkers, ActorLive, ActorMailbox, ActorSpawned, ActorStopped,
		ActorDeadLetters, ActorRefused, ActorPanics, ActorRestarts}}
	Router = Subject{Label: "router", Metrics: []*Metric{RouterWorkers, RouterForwarded, RouterUnhandled, RouterRestarts,
		RouterWait, RouterHandling}}
	Subjects = []Subject{Pool, Autoscaler, System, Router}
)

// Emit receives one value: the metric, the value of its own label ("" when
// it has none), and the value; or, for a histogram, h.
type Emit func(m *Metric, label string, v float64, h *pool.Histogram)

// ReadPool reads p's metrics, one call of emit each (rejections one per
// reason).
func ReadPool(p PoolSource, emit Emit) {
	s := p.Stats()
	emit(PoolCapacity, "", float64(s.Cap), nil)
	emit(PoolWorkers, "", float64(s.Workers), nil)
	emit(PoolIdle, "", float64(s.Idle), nil)
	emit(PoolRunning, "", float64(s.Running), nil)
	emit(PoolWaiting, "", float64(s.Waiting), nil)
	emit(PoolKeys, "", float64(s.Keys), nil)
	emit(PoolKeyed, "", float64(s.KeyedWaiting), nil)
	emit(PoolSubmitted, "", float64(s.Submitted), nil)
	emit(PoolCompleted, "", float64(s.Completed), nil)
	emit(PoolRejected, "overload", float64(s.RejectedOverload), nil)
	emit(PoolRejected, "closed", float64(s.RejectedClosed), nil)
	emit(PoolRejected, "context", float64(s.RejectedContext), nil)
	emit(PoolPanicked, "", float64(s.Panicked), nil)
	emit(PoolReturned, "", float64(s.Returned), nil)
	emit(PoolExpired, "", float64(s.Expired), nil)
	emit(PoolShed, "", float64(s.Shed), nil)
	emit(PoolResizes, "", float64(s.Resizes), nil)
	emit(PoolWait, "", 0, &s.Wait)
	emit(PoolService, "", 0, &s.Service)
}

// ReadAutoscaler reads c's metrics (decisions one per cause).
func ReadAutoscaler(c AutoscalerSource, emit Emit) {
	s := c.Stats()
	emit(AutoTarget, "", float64(s.Size), nil)
	emit(AutoMin, "", float64(s.Min), nil)
	emit(AutoMax, "", float64(s.Max), nil)
	emit(AutoKnee, "", float64(s.Knee), nil)
	for _, k := range autoscale.Causes {
		emit(AutoDecisions, string(k), float64(s.Decisions[k]), nil)
	}
	emit(AutoResizes, "", float64(s.Resizes), nil)
}

// ReadSystem reads s's metrics.
func ReadSystem(sys SystemSource, emit Emit) {
	s := sys.Stats()
	emit(ActorWorkers, "", float64(s.Workers), nil)
	emit(ActorLive, "", float64(s.Actors), nil)
	emit(ActorMailbox, "", float64(s.Queued), nil)
	emit(ActorSpawned, "", float64(s.Spawned), nil)
	emit(ActorStopped, "", float64(s.Stopped), nil)
	emit(ActorDeadLetters, "", float64(s.DeadLetters), nil)
	emit(ActorRefused, "mailbox_full", float64(s.MailboxFull), nil)
	emit(ActorRefused, "other", float64(s.Refused), nil)
	emit(ActorPanics, "", float64(s.Panics), nil)
	emit(ActorRestarts, "", float64(s.Restarts), nil)
}

// ReadRouter reads r's metrics.
func ReadRouter(r RouterSource, emit Emit) {
	s := r.Stats()
	emit(RouterWorkers, "", float64(s.Size), nil)
	emit(RouterForwarded, "", float64(s.Forwarded), nil)
	emit(RouterUnhandled, "", float64(s.Unhandled), nil)
	emit(RouterRestarts, "", float64(s.Restarts), nil)
	emit(RouterWait, "", 0, &s.Wait)
	emit(RouterHandling, "", 0, &s.Service)
}

// BucketStep is how many of the histogram's buckets the exporters merge
// into one: the published bounds grow fourfold.
const BucketStep = 2

// Bounds returns the histogram bounds the exporters publish, in seconds,
// ascending, without +Inf.
func Bounds() []float64 {
	var out []float64
	var h pool.Histogram
	for i := 0; i < len(h.Counts)-1; i += BucketStep {
		out = append(out, h.Bound(i).Seconds())
	}
	return out
}

// Counts returns, for each of Bounds, the number of h's durations below it
// (cumulative, as Prometheus buckets are) when cumulative is true, or below
// it and at or above the previous bound (as OpenTelemetry buckets are,
// with one more for the rest) otherwise; and h's sum in seconds. The
// pool's buckets end below their bounds, where Prometheus's and
// OpenTelemetry's include them: a duration of exactly a bound, to the
// nanosecond, is published one bucket up.
func Counts(h *pool.Histogram, cumulative bool) (counts []uint64, sum float64) {
	n := len(Bounds())
	counts = make([]uint64, n+1) // the last: above the last bound
	for i, c := range h.Counts {
		// Bucket i ends at Histogram.Bound(i); an odd one lies above a
		// published bound and below the next.
		counts[min((i+BucketStep-1)/BucketStep, n)] += c
	}
	if cumulative {
		for i := 1; i < n; i++ {
			counts[i] += counts[i-1]
		}
		counts = counts[:n]
	}
	return counts, h.Sum.Seconds()
}
