#include "urim_types.h"

/* Go cannot call a C function pointer itself: this calls the caller's
 * agent for it. */
int32_t urim_call_agent(urim_agent_fn fn, int64_t index, uintptr_t game) {
	return fn(index, game);
}
