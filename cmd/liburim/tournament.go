package main

/*
#include "urim_types.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"runtime/cgo"

	"github.com/urim-rl/urim/capi"
)

func jsonUnmarshal(s string, v any) error {
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return capi.Errorf(capi.ErrArg, "bad JSON argument: %v", err)
	}
	return nil
}

// urim_tournament runs the tournament of config (the JSON of
// evaluate.Config, agents as capi.TournamentPlayer) and returns a blob, the
// JSON of capi.TournamentResult. Agents with "callback": k are played by
// fn(k, game); fn may be NULL when there are none.
//
//export urim_tournament
func urim_tournament(config *C.char, fn C.urim_agent_fn, ncallbacks C.int64_t, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	var cbs []capi.Callback
	if fn != nil {
		for k := range int64(ncallbacks) {
			cbs = append(cbs, func(g *capi.Game) (int, error) {
				h := cgo.NewHandle(&object{v: g})
				defer h.Delete()
				a := C.urim_call_agent(fn, C.int64_t(k), C.uintptr_t(h))
				if a < 0 {
					return 0, capi.Errorf(capi.ErrCall, "the Python agent %d raised an exception", k)
				}
				return int(a), nil
			})
		}
	}
	b, e := capi.Tournament(context.Background(), []byte(C.GoString(config)), cbs)
	if e == nil {
		newBlob(b, out)
	}
	finish(&code, e, err, errlen)
	return
}
