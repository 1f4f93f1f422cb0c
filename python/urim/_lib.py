"""Loading liburim.so with ctypes, its error codes, and the small helpers
every wrapper shares. Nothing here is public: use urim.VecEnv, urim.Game,
urim.Agent, ... instead."""

import ctypes
import json
import os
import threading

import numpy as np

from . import _errors

_HERE = os.path.dirname(os.path.abspath(__file__))
LIB_NAME = "liburim.so"

u = ctypes.c_size_t  # uintptr_t: the same size on every platform Go builds c-shared for
i32, i64, u64 = ctypes.c_int32, ctypes.c_int64, ctypes.c_uint64
c_str, c_char_p = ctypes.c_char_p, ctypes.c_char_p
f32p = ctypes.POINTER(ctypes.c_float)
u8p = ctypes.POINTER(ctypes.c_uint8)
i32p = ctypes.POINTER(ctypes.c_int32)
ERR = (ctypes.c_char_p, i64)  # every function ends with (err, errlen)


class Buffers(ctypes.Structure):
    """urim_types.h's urim_buffers."""
    _fields_ = [("obs", f32p), ("mask", u8p), ("rewards", f32p), ("rewards2", f32p),
                ("terminated", u8p), ("truncated", u8p), ("to_move", i32p),
                ("final_obs", f32p), ("has_final", u8p), ("legal", u8p), ("actions", i32p)]


AGENT_FN = ctypes.CFUNCTYPE(i32, i64, u)

_SIGNATURES = {
    "urim_version": [ctypes.POINTER(u)],
    "urim_blob_len": [u, ctypes.POINTER(i64)],
    "urim_blob_read": [u, ctypes.c_char_p, i64],
    "urim_vec_new": [c_str, ctypes.POINTER(u)],
    "urim_vec_info": [u, ctypes.POINTER(u)],
    "urim_vec_set_buffers": [u, ctypes.POINTER(Buffers)],
    "urim_vec_step": [u],
    "urim_vec_random_actions": [u],
    "urim_vec_reset": [u, i32, u64],
    "urim_vec_reset_mask": [u, u8p],
    "urim_vec_step_into": [u, ctypes.POINTER(Buffers), ctypes.POINTER(Buffers)],
    "urim_vec_reset_into": [u, ctypes.POINTER(Buffers), ctypes.POINTER(Buffers), i32, u64],
    "urim_vec_reset_mask_into": [u, ctypes.POINTER(Buffers), ctypes.POINTER(Buffers), u8p],
    "urim_vec_close": [u],
    "urim_game_new": [c_str, c_str, c_str, c_str, ctypes.POINTER(u)],
    "urim_game_clone": [u, ctypes.POINTER(u)],
    "urim_game_step": [u, i64],
    "urim_game_observe": [u, f32p, u8p],
    "urim_game_status": [u, i32p, f32p],
    "urim_game_text": [u, i64, i64, i64, ctypes.POINTER(u)],
    "urim_game_probe": [u, c_str, ctypes.POINTER(u)],
    "urim_agent_new": [c_str, c_str, u64, ctypes.POINTER(u)],
    "urim_agent_act": [u, u, i32p],
    "urim_agent_act_batch": [u, ctypes.POINTER(u), i64, i32p],
    "urim_agent_reset": [u],
    "urim_bench_acts": [c_str, c_str, u64, c_str, ctypes.POINTER(ctypes.c_double)],
    "urim_bench_vec": [c_str, i64, i64, ctypes.POINTER(ctypes.c_double)],
    "urim_tournament": [c_str, AGENT_FN, i64, ctypes.POINTER(u)],
    "urim_nn_import": [c_str, c_str],
    "urim_nn_export": [c_str, c_str],
    "urim_net_load": [c_str, ctypes.POINTER(u)],
    "urim_net_info": [u, ctypes.POINTER(u)],
    "urim_net_predict": [u, f32p, i64, f32p, f32p],
    "urim_net_set_precision": [u, c_str],
}


def library_path():
    """The library loaded: $URIM_LIB if set, else liburim.so in the package."""
    return os.environ.get("URIM_LIB") or os.path.join(_HERE, LIB_NAME)


def _load():
    path = library_path()
    if not os.path.exists(path):
        raise ImportError(
            f"urim: {path} is missing: build it with scripts/build_python.sh from the repository root "
            "(go build -buildmode=c-shared -o python/urim/liburim.so ./cmd/liburim), see docs/python.md")
    lib = ctypes.CDLL(path)
    for name, args in _SIGNATURES.items():
        f = getattr(lib, name)
        f.argtypes = args + ([] if name == "urim_free" else list(ERR))
        f.restype = i32
    lib.urim_free.argtypes = [u]
    lib.urim_free.restype = None
    return lib


lib = _load()


def unchecked(name):
    """lib.name without argtypes (restype int32): for the calls of every
    step, whose callers pass only ctypes objects of the exact types (a
    c_size_t handle, byref structs, pointers, a string buffer, c_int64):
    ctypes then skips a from_param conversion per argument (about 0.4 us a
    call). The same library, loaded once (dlopen returns its handle)."""
    f = getattr(ctypes.CDLL(library_path()), name)
    f.restype = i32
    return f

_tls = threading.local()
ERRLEN = 4096
ERRLEN_C = i64(ERRLEN)  # for unchecked calls


def errbuf():
    """A per-thread buffer for error messages."""
    b = getattr(_tls, "err", None)
    if b is None:
        b = _tls.err = ctypes.create_string_buffer(ERRLEN)
    return b


def call(name, *args):
    """Calls lib.name(*args, err, errlen) and raises the exception of a
    non-zero code."""
    b = errbuf()
    code = getattr(lib, name)(*args, b, ERRLEN)
    if code:
        raise _errors.from_code(code, b.value.decode("utf-8", "replace"))


def enc(s):
    """A Python string as the bytes of a C string."""
    if s is None:
        return b""
    if not isinstance(s, (str, os.PathLike)):
        raise TypeError(f"urim: expected a string, got {type(s).__name__}")
    s = os.fspath(s)
    if "\0" in s:
        raise ValueError("urim: a string argument holds a NUL character")
    return s.encode("utf-8")


def blob(name, *args):
    """Calls a function that returns a blob handle and returns its bytes."""
    h = u()
    call(name, *args, ctypes.byref(h))
    try:
        n = i64()
        call("urim_blob_len", h, ctypes.byref(n))
        buf = ctypes.create_string_buffer(max(n.value, 1))
        call("urim_blob_read", h, buf, n.value)
        return buf.raw[:n.value]
    finally:
        lib.urim_free(h)


def blob_json(name, *args):
    return json.loads(blob(name, *args))


def ptr(a, ctype):
    """The address of a C-contiguous array as a ctypes pointer."""
    return a.ctypes.data_as(ctypes.POINTER(ctype))


def check_array(name, a, dtype, shape):
    """Raises unless a is a writable, C-contiguous ndarray of dtype and
    shape: the checks of every buffer the library writes into."""
    if not isinstance(a, np.ndarray):
        raise TypeError(f"urim: {name} must be a numpy array, got {type(a).__name__}")
    if a.dtype != np.dtype(dtype):
        raise TypeError(f"urim: {name} has dtype {a.dtype}, want {np.dtype(dtype)}")
    if a.shape != tuple(shape):
        raise ValueError(f"urim: {name} has shape {a.shape}, want {tuple(shape)}")
    if not a.flags.c_contiguous:
        raise ValueError(f"urim: {name} is not C-contiguous (use np.ascontiguousarray)")
    if not a.flags.writeable:
        raise ValueError(f"urim: {name} is read-only")
    if not a.flags.aligned:
        raise ValueError(f"urim: {name} is not aligned")


def version():
    """The library's build: module version, commit, Go version (a dict)."""
    return blob_json("urim_version")
