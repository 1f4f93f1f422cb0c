package capi

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
)

// Code classifies an error for the C interface; Python maps each to an
// exception class (python/urim/_errors.py). The values are part of the C
// interface: keep them in step with cmd/liburim's header and the Python
// package.
type Code int32

const (
	OK         Code = 0
	ErrArg     Code = 1 // a bad argument or value (ValueError)
	ErrIllegal Code = 2 // an illegal or out-of-range action
	ErrClosed  Code = 3 // a closed object or an unknown handle
	ErrIO      Code = 4 // a file that cannot be read or written (OSError)
	ErrSpec    Code = 5 // an unknown agent or a bad spec
	ErrCkpt    Code = 6 // a corrupt or mismatched checkpoint or table
	ErrCall    Code = 7 // an agent played by the caller failed
	ErrBuffer  Code = 8 // an output buffer too small for the answer
	ErrPanic   Code = 9 // a bug: a panic caught at the boundary
)

// Error is an error with its code.
type Error struct {
	Code Code
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of code c.
func Errorf(c Code, format string, args ...any) error {
	return &Error{Code: c, Err: fmt.Errorf(format, args...)}
}

// ErrClosedObject is the error of any use of a closed object.
var ErrClosedObject = errors.New("the object is closed")

// CodeOf classifies err: its own code if it is an *Error, else by the
// sentinel errors of the packages that made it.
func CodeOf(err error) Code {
	var e *Error
	var pe *fs.PathError
	var ie *agents.IllegalActionError
	switch {
	case err == nil:
		return OK
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, ErrClosedObject):
		return ErrClosed
	case errors.Is(err, env.ErrIllegal), errors.As(err, &ie):
		return ErrIllegal
	case errors.Is(err, nn.ErrCorrupt), errors.Is(err, nn.ErrNotCheckpoint), errors.Is(err, nn.ErrTruncated),
		errors.Is(err, nn.ErrVersion), errors.Is(err, nn.ErrMismatch), errors.Is(err, tablebase.ErrMismatch),
		errors.Is(err, tablebase.ErrCorrupt), errors.Is(err, tablebase.ErrTruncated), errors.Is(err, tablebase.ErrVersion):
		return ErrCkpt
	case errors.Is(err, agents.ErrSpec):
		return ErrSpec
	case errors.As(err, &pe), errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return ErrIO
	}
	return ErrArg
}
