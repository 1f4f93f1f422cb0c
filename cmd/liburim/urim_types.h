/* Types of liburim's C interface (cmd/liburim, docs/python.md). The
 * functions themselves are declared in the liburim.h that
 * go build -buildmode=c-shared writes beside the library.
 *
 * Every function returns 0 or an error code (URIM_ERR_*) and, on an error,
 * writes a NUL-terminated message into the caller's err buffer of errlen
 * bytes. The caller owns every buffer it passes; the library writes into
 * them during the call and keeps the addresses of a VecEnv's buffers (in C
 * memory, never in Go's heap) until the next urim_vec_set_buffers or
 * urim_free. Objects are named by handles (uintptr_t); urim_free releases
 * any of them. */
#ifndef URIM_TYPES_H
#define URIM_TYPES_H
#include <stdint.h>

#define URIM_OK 0
#define URIM_ERR_ARG 1
#define URIM_ERR_ILLEGAL 2
#define URIM_ERR_CLOSED 3
#define URIM_ERR_IO 4
#define URIM_ERR_SPEC 5
#define URIM_ERR_CHECKPOINT 6
#define URIM_ERR_CALLBACK 7
#define URIM_ERR_BUFFER 8
#define URIM_ERR_PANIC 9

/* The buffers of a VecEnv, N rows each (row-major, C order). final_obs and
 * has_final are read under autoreset same_step only and may be NULL
 * otherwise. bool arrays hold one byte per entry, 0 or 1. */
typedef struct {
	float *obs;          /* N x obs_dim */
	uint8_t *mask;       /* N x actions */
	float *rewards;      /* N: the reward of the player who moved */
	float *rewards2;     /* N x 2: players 0 and 1 */
	uint8_t *terminated; /* N */
	uint8_t *truncated;  /* N */
	int32_t *to_move;    /* N */
	float *final_obs;    /* N x obs_dim */
	uint8_t *has_final;  /* N */
	uint8_t *legal;      /* N: the legal actions as a bit set, bit a for action a */
	int32_t *actions;    /* N, read by urim_vec_step */
} urim_buffers;

/* An agent played by the caller: it gets its index among the callables of
 * the tournament and a Game handle (valid during the call only) and returns
 * its action, or a negative number if it failed. */
typedef int32_t (*urim_agent_fn)(int64_t index, uintptr_t game);

int32_t urim_call_agent(urim_agent_fn fn, int64_t index, uintptr_t game);
#endif
