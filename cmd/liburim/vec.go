package main

/*
#include <stdlib.h>
#include "urim_types.h"
*/
import "C"

import (
	"encoding/json"
	"unsafe"

	"github.com/urim-rl/urim/capi"
	"github.com/urim-rl/urim/env"
)

// vecBuffers views the caller's buffers as the slices of one call.
func vecBuffers(e *capi.VecEnv, b *C.urim_buffers) (capi.Buffers, error) {
	if b == nil {
		return capi.Buffers{}, capi.Errorf(capi.ErrArg, "urim_vec: no buffers set (call urim_vec_set_buffers first)")
	}
	n, d, p := e.Len(), e.ObsDim(), e.Actions()
	out := capi.Buffers{
		Obs:        goBytes((*float32)(unsafe.Pointer(b.obs)), n*d),
		Mask:       goBytes((*bool)(unsafe.Pointer(b.mask)), n*p),
		Rewards:    goBytes((*float32)(unsafe.Pointer(b.rewards)), n),
		Rewards2:   goBytes((*float32)(unsafe.Pointer(b.rewards2)), 2*n),
		Terminated: goBytes((*bool)(unsafe.Pointer(b.terminated)), n),
		Truncated:  goBytes((*bool)(unsafe.Pointer(b.truncated)), n),
		ToMove:     goBytes((*int32)(unsafe.Pointer(b.to_move)), n),
		FinalObs:   goBytes((*float32)(unsafe.Pointer(b.final_obs)), n*d),
		HasFinal:   goBytes((*bool)(unsafe.Pointer(b.has_final)), n),
		Legal:      goBytes((*uint8)(unsafe.Pointer(b.legal)), n),
		Actions:    goBytes((*int32)(unsafe.Pointer(b.actions)), n),
	}
	if out.Obs == nil || out.Mask == nil || out.Rewards == nil || out.Rewards2 == nil || out.Terminated == nil ||
		out.Truncated == nil || out.ToMove == nil || out.Legal == nil || out.Actions == nil ||
		(e.Options().AutoReset == env.AutoResetSameStep && (out.FinalObs == nil || out.HasFinal == nil)) {
		return capi.Buffers{}, capi.Errorf(capi.ErrArg, "urim_vec: a NULL buffer")
	}
	return out, nil
}

// setBuffers is the set of urim_vec_set_buffers, as slices (built once).
func setBuffers(o *object) (*capi.Buffers, error) {
	if o.vbufs == nil {
		return nil, capi.Errorf(capi.ErrArg, "urim_vec: no buffers set (call urim_vec_set_buffers first)")
	}
	return o.vbufs, nil
}

// intoBuffers views the out and prev sets of a call of the _into functions.
func intoBuffers(e *capi.VecEnv, out, prev *C.urim_buffers) (o, p capi.Buffers, err error) {
	if o, err = vecBuffers(e, out); err != nil {
		return
	}
	p, err = vecBuffers(e, prev)
	return
}

// urim_vec_new builds a VecEnv from the JSON of capi.VecConfig.
//
//export urim_vec_new
func urim_vec_new(config *C.char, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	var cfg capi.VecConfig
	e := json.Unmarshal([]byte(C.GoString(config)), &cfg)
	if e != nil {
		e = capi.Errorf(capi.ErrArg, "urim_vec_new: config: %v", e)
	} else {
		var v *capi.VecEnv
		if v, e = capi.NewVecEnv(cfg); e == nil {
			newHandle(v, out)
		}
	}
	finish(&code, e, err, errlen)
	return
}

// urim_vec_info returns a blob: the JSON of the settings in effect.
//
//export urim_vec_info
func urim_vec_info(h C.uintptr_t, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		if v.Vec() == nil {
			return capi.ErrClosedObject
		}
		b, e := json.Marshal(v.Describe())
		if e == nil {
			newBlob(b, out)
		}
		return e
	}), err, errlen)
	return
}

// urim_vec_set_buffers hands over the buffers, sized as urim_vec_info says;
// the library keeps their addresses (in C memory) until the next call of it
// or urim_free, and writes the first observations into them.
//
//export urim_vec_set_buffers
func urim_vec_set_buffers(h C.uintptr_t, b *C.urim_buffers, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		if b == nil {
			return capi.Errorf(capi.ErrArg, "urim_vec_set_buffers: no buffers")
		}
		c := (*C.urim_buffers)(C.malloc(C.size_t(unsafe.Sizeof(C.urim_buffers{}))))
		*c = *b
		bufs, e := vecBuffers(v, c)
		if e != nil {
			C.free(unsafe.Pointer(c))
			return e
		}
		if o.bufs != nil {
			C.free(unsafe.Pointer(o.bufs))
		}
		o.bufs, o.vbufs = c, &bufs
		return nil
	}), err, errlen)
	return
}

// urim_vec_step plays the actions buffer and writes the tensors into the
// buffers of urim_vec_set_buffers.
//
//export urim_vec_step
func urim_vec_step(h C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		b, e := setBuffers(o)
		if e != nil {
			return e
		}
		return v.Step(b)
	}), err, errlen)
	return
}

// urim_vec_random_actions writes one random legal action per game into the
// actions buffer (capi.VecEnv.RandomActions, drawn in Go), for
// urim_vec_step to play.
//
//export urim_vec_random_actions
func urim_vec_random_actions(h C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		b, e := setBuffers(o)
		if e != nil {
			return e
		}
		return v.RandomActions(b.Actions)
	}), err, errlen)
	return
}

// urim_vec_reset starts every game again; has_seed 1 reseeds with seed.
//
//export urim_vec_reset
func urim_vec_reset(h C.uintptr_t, hasSeed C.int32_t, seed C.uint64_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		b, e := setBuffers(o)
		if e != nil {
			return e
		}
		s := optionalSeed(hasSeed, seed)
		return v.Reset(b, s)
	}), err, errlen)
	return
}

// urim_vec_reset_mask starts again the games whose byte in sel (N bytes) is 1.
//
//export urim_vec_reset_mask
func urim_vec_reset_mask(h C.uintptr_t, sel *C.uint8_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		b, e := setBuffers(o)
		if e != nil {
			return e
		}
		if sel == nil {
			return capi.Errorf(capi.ErrArg, "urim_vec_reset_mask: no mask")
		}
		return v.ResetMask(b, goBytes((*bool)(unsafe.Pointer(sel)), v.Len()))
	}), err, errlen)
	return
}

// urim_vec_step_into plays the actions of out (an urim_buffers like those
// of urim_vec_set_buffers) and writes every tensor into out, a set that need
// not hold anything, carrying over from prev, the set the previous call
// wrote, what the step leaves (capi.VecEnv.StepInto; out == prev is
// urim_vec_step into that set). Neither set is kept.
//
//export urim_vec_step_into
func urim_vec_step_into(h C.uintptr_t, out, prev *C.urim_buffers, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		b, p, e := intoBuffers(v, out, prev)
		if e != nil {
			return e
		}
		return v.StepInto(&b, &p)
	}), err, errlen)
	return
}

// urim_vec_reset_into is urim_vec_reset writing into out, with prev as in
// urim_vec_step_into.
//
//export urim_vec_reset_into
func urim_vec_reset_into(h C.uintptr_t, out, prev *C.urim_buffers, hasSeed C.int32_t, seed C.uint64_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		b, p, e := intoBuffers(v, out, prev)
		if e != nil {
			return e
		}
		s := optionalSeed(hasSeed, seed)
		return v.ResetInto(&b, &p, s)
	}), err, errlen)
	return
}

// urim_vec_reset_mask_into is urim_vec_reset_mask writing into out, with
// prev as in urim_vec_step_into.
//
//export urim_vec_reset_mask_into
func urim_vec_reset_mask_into(h C.uintptr_t, out, prev *C.urim_buffers, sel *C.uint8_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error {
		b, p, e := intoBuffers(v, out, prev)
		if e != nil {
			return e
		}
		if sel == nil {
			return capi.Errorf(capi.ErrArg, "urim_vec_reset_mask_into: no mask")
		}
		return v.ResetMaskInto(&b, &p, goBytes((*bool)(unsafe.Pointer(sel)), v.Len()))
	}), err, errlen)
	return
}

// urim_vec_close stops the workers; the handle must still be freed.
//
//export urim_vec_close
func urim_vec_close(h C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(o *object, v *capi.VecEnv) error { return v.Close() }), err, errlen)
	return
}

// optionalSeed is the seed a C caller passed, or nil when hasSeed is 0.
func optionalSeed(hasSeed C.int32_t, seed C.uint64_t) *uint64 {
	if hasSeed == 0 {
		return nil
	}
	x := uint64(seed)
	return &x
}
