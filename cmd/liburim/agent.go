package main

/*
#include "urim_types.h"
*/
import "C"

import (
	"unsafe"

	"github.com/urim-rl/urim/capi"
)

//export urim_agent_new
func urim_agent_new(spec, rules *C.char, seed C.uint64_t, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	a, e := capi.NewAgent(C.GoString(spec), C.GoString(rules), uint64(seed))
	if e == nil {
		newHandle(a, out)
	}
	finish(&code, e, err, errlen)
	return
}

//export urim_agent_act
func urim_agent_act(h, game C.uintptr_t, action *C.int32_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	if h == game {
		// with(h) holds the object's lock, so with(game) would wait for it forever.
		finish(&code, capi.Errorf(capi.ErrClosed, "urim_agent_act: the game handle is the agent's own, not a Game"), err, errlen)
		return
	}
	finish(&code, with(h, func(_ *object, a *capi.Agent) error {
		return with(game, func(_ *object, g *capi.Game) error {
			act, e := a.Act(g)
			*action = C.int32_t(act)
			return e
		})
	}), err, errlen)
	return
}

// urim_agent_act_batch writes into out[i] the agent's move in games[i].
//
//export urim_agent_act_batch
func urim_agent_act_batch(h C.uintptr_t, games *C.uintptr_t, n C.int64_t, out *C.int32_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, a *capi.Agent) error {
		if n < 0 || (n > 0 && (games == nil || out == nil)) {
			return capi.Errorf(capi.ErrArg, "urim_agent_act_batch: bad buffers")
		}
		hs := goBytes((*C.uintptr_t)(unsafe.Pointer(games)), int(n))
		gs := make([]*capi.Game, n)
		objs := make([]*object, n)
		for i, gh := range hs {
			o, e := lookup(gh)
			if e != nil {
				return capi.Errorf(capi.ErrClosed, "position %d: %v", i, e)
			}
			g, ok := o.v.(*capi.Game)
			if !ok {
				return capi.Errorf(capi.ErrClosed, "position %d: the handle is not a Game", i)
			}
			gs[i], objs[i] = g, o
		}
		return a.ActBatch(gs, goBytes((*int32)(unsafe.Pointer(out)), int(n)))
	}), err, errlen)
	return
}

//export urim_agent_reset
func urim_agent_reset(h C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, a *capi.Agent) error { a.Reset(); return nil }), err, errlen)
	return
}

// urim_bench_acts is the Go side of the act_batch benchmark: the seconds
// the agent takes on the positions (a JSON list of notations), in Go.
//
//export urim_bench_acts
func urim_bench_acts(spec, rules *C.char, seed C.uint64_t, positions *C.char, secs *C.double, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	var ps []string
	e := jsonUnmarshal(C.GoString(positions), &ps)
	if e == nil {
		var s float64
		s, e = capi.TimeActs(C.GoString(spec), C.GoString(rules), uint64(seed), ps)
		*secs = C.double(s)
	}
	finish(&code, e, err, errlen)
	return
}

// urim_bench_vec is the Go side of the VecEnv benchmark: env.Vec's game
// steps per second on one worker (bench.Vec).
//
//export urim_bench_vec
func urim_bench_vec(rules *C.char, n C.int64_t, steps C.int64_t, rate *C.double, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	r, e := capi.BenchVec(C.GoString(rules), int(n), int64(steps))
	*rate = C.double(r)
	finish(&code, e, err, errlen)
	return
}
