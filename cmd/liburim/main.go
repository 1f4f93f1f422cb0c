// Command liburim is the C library that Python's urim package loads with
// ctypes, built with
//
//	go build -buildmode=c-shared -o python/urim/liburim.so ./cmd/liburim
//
// (scripts/build_python.sh). It is only glue: every function turns C
// pointers into the slices of one call, runs the logic of capi,
// and turns an error, or a panic, into a code and a message written into
// the caller's buffer. urim_types.h holds the types and codes; docs/python.md
// describes the interface.
package main

/*
#include <stdlib.h>
#include <string.h>
#include "urim_types.h"
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"runtime/cgo"
	"sync"
	"unsafe"

	"github.com/urim-rl/urim/capi"
	"github.com/urim-rl/urim/internal/buildinfo"

	_ "github.com/urim-rl/urim/agents/all" // every agent kind, for the specs given
)

func main() {}

// object is what a handle holds: one of the capi types behind a lock, so
// two Python threads calling one object (ctypes drops the GIL) take turns.
type object struct {
	mu   sync.Mutex
	v    any
	bufs *C.urim_buffers // a VecEnv's buffer addresses, in C memory
	// vbufs views bufs as the slices capi takes, built once by
	// urim_vec_set_buffers (no allocation per step).
	vbufs *capi.Buffers
}

func newHandle(v any, out *C.uintptr_t) {
	*out = C.uintptr_t(cgo.NewHandle(&object{v: v}))
}

// lookup returns the object of handle h, or ErrClosed.
func lookup(h C.uintptr_t) (o *object, err error) {
	defer func() {
		if recover() != nil {
			o, err = nil, capi.ErrClosedObject
		}
	}()
	if h == 0 {
		return nil, capi.ErrClosedObject
	}
	o, ok := cgo.Handle(h).Value().(*object)
	if !ok {
		return nil, capi.ErrClosedObject
	}
	return o, nil
}

// with runs f on the object of handle h as a T, under its lock.
func with[T any](h C.uintptr_t, f func(o *object, v T) error) error {
	o, err := lookup(h)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	v, ok := o.v.(T)
	if !ok {
		var zero T
		return capi.Errorf(capi.ErrClosed, "handle names a %T, not a %T", o.v, zero)
	}
	return f(o, v)
}

// finish writes err's message into the caller's buffer and returns its
// code. It is deferred with the address of the function's result so that
// a panic becomes ErrPanic instead of killing the interpreter.
func finish(code *C.int32_t, err error, buf *C.char, n C.int64_t) {
	c := capi.CodeOf(err)
	*code = C.int32_t(c)
	if err != nil {
		writeString(err.Error(), buf, n)
	}
}

func guard(code *C.int32_t, buf *C.char, n C.int64_t) {
	if r := recover(); r != nil {
		*code = C.int32_t(capi.ErrPanic)
		writeString(fmt.Sprintf("urim: internal error (please report it): %v", r), buf, n)
	}
}

// writeString copies s, cut to fit, and a NUL into buf[:n].
func writeString(s string, buf *C.char, n C.int64_t) {
	if buf == nil || n <= 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	k := copy(b[:n-1], s)
	b[k] = 0
}

func goBytes[T any](p *T, n int) []T {
	if p == nil || n == 0 {
		return nil
	}
	return unsafe.Slice(p, n)
}

// newBlob holds b for the caller to read with urim_blob_read.
func newBlob(b []byte, out *C.uintptr_t) { newHandle(b, out) }

//export urim_version
func urim_version(out *C.uintptr_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	info := buildinfo.Read()
	b, e := json.Marshal(info)
	if e == nil {
		newBlob(b, out)
	}
	finish(&code, e, err, errlen)
	return
}

//export urim_blob_len
func urim_blob_len(h C.uintptr_t, n *C.int64_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, b []byte) error { *n = C.int64_t(len(b)); return nil }), err, errlen)
	return
}

//export urim_blob_read
func urim_blob_read(h C.uintptr_t, buf *C.char, n C.int64_t, err *C.char, errlen C.int64_t) (code C.int32_t) {
	defer guard(&code, err, errlen)
	finish(&code, with(h, func(_ *object, b []byte) error {
		if int(n) < len(b) {
			return capi.Errorf(capi.ErrBuffer, "blob of %d bytes, buffer of %d", len(b), n)
		}
		copy(goBytes((*byte)(unsafe.Pointer(buf)), int(n)), b)
		return nil
	}), err, errlen)
	return
}

// urim_free releases any handle: a closed VecEnv, Agent or Network stops
// and frees what it holds. Freeing 0 or a freed handle does nothing.
//
//export urim_free
func urim_free(h C.uintptr_t) {
	defer func() { _ = recover() }()
	o, err := lookup(h)
	if err != nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	switch v := o.v.(type) {
	case *capi.VecEnv:
		_ = v.Close()
	case *capi.Agent:
		_ = v.Close()
	}
	if o.bufs != nil {
		C.free(unsafe.Pointer(o.bufs))
		o.bufs, o.vbufs = nil, nil
	}
	o.v = nil
	cgo.Handle(h).Delete()
}
