package main

/*
#include "urim_types.h"
*/
import "C"

import (
	"encoding/json"
	"unsafe"

	"github.com/urim-rl/urim/capi"
)

//export urim_game_new
func urim_game_new(rules, encoding, reward, position *C.char, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	g, e := capi.NewGame(C.GoString(rules), C.GoString(encoding), C.GoString(reward), C.GoString(position))
	if e == nil {
		newHandle(g, out)
	}
	finish(&code, e, err, errlen)
	return
}

//export urim_game_clone
func urim_game_clone(h C.uintptr_t, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, g *capi.Game) error { newHandle(g.Clone(), out); return nil }), err, errlen)
	return
}

//export urim_game_step
func urim_game_step(h C.uintptr_t, action C.int64_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, g *capi.Game) error {
		if action < 0 || action >= C.int64_t(g.Actions()) {
			return capi.Errorf(capi.ErrIllegal, "action %d is out of range 0..%d", action, g.Actions()-1)
		}
		return g.Step(int(action))
	}), err, errlen)
	return
}

// urim_game_observe writes the observation (obs_dim floats) and the legal
// mask (actions bytes).
//
//export urim_game_observe
func urim_game_observe(h C.uintptr_t, obs *C.float, mask *C.uint8_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, g *capi.Game) error {
		if obs == nil || mask == nil {
			return capi.Errorf(capi.ErrArg, "urim_game_observe: a NULL buffer")
		}
		return g.Observe(goBytes((*float32)(unsafe.Pointer(obs)), g.ObsDim()), goBytes((*bool)(unsafe.Pointer(mask)), g.Actions()))
	}), err, errlen)
	return
}

// urim_game_status writes 5 int32 (to_move, terminated, truncated, ply, the
// legal actions as a bit set) and 2 floats (the rewards of players 0 and
// 1, 0 until the game is over).
//
//export urim_game_status
func urim_game_status(h C.uintptr_t, st *C.int32_t, rewards *C.float, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, g *capi.Game) error {
		if st == nil || rewards == nil {
			return capi.Errorf(capi.ErrArg, "urim_game_status: a NULL buffer")
		}
		s := g.Status()
		b2i := map[bool]int32{false: 0, true: 1}
		copy(goBytes((*int32)(unsafe.Pointer(st)), 5), []int32{int32(s.ToMove), b2i[s.Terminated], b2i[s.Truncated], int32(s.Ply), int32(g.Legal())})
		copy(goBytes((*float32)(unsafe.Pointer(rewards)), 2), s.Rewards[:])
		return nil
	}), err, errlen)
	return
}

// urim_game_text returns a blob: what 0 the notation, 1 the position's
// JSON (as urim replay writes it, with game and action; action -1: none),
// 2 the game's settings as JSON.
//
//export urim_game_text
func urim_game_text(h C.uintptr_t, what, game, action C.int64_t, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, g *capi.Game) error {
		var b []byte
		var e error
		switch what {
		case 0:
			b = []byte(g.Notation())
		case 1:
			b, e = g.JSON(int(game), int(action))
		case 2:
			b, e = json.Marshal(g.Info())
		default:
			e = capi.Errorf(capi.ErrArg, "urim_game_text: unknown kind %d", what)
		}
		if e == nil {
			newBlob(b, out)
		}
		return e
	}), err, errlen)
	return
}

// urim_game_probe returns a blob: the tablebase report of the position as
// JSON, from the table file.
//
//export urim_game_probe
func urim_game_probe(h C.uintptr_t, table *C.char, out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, g *capi.Game) error {
		b, e := g.Probe(C.GoString(table))
		if e == nil {
			newBlob(b, out)
		}
		return e
	}), err, errlen)
	return
}
