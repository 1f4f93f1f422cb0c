package memlimit

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// platformLimits offers Linux's limits: the machine's memory, the cgroup's
// and the address space left under RLIMIT_AS.
func platformLimits(consider func(uint64, string)) {
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				if kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64); err == nil {
					consider(kb<<10, "the machine's memory (MemTotal)")
				}
			}
		}
	}
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if data, err := os.ReadFile(p); err == nil {
			if n, err := strconv.ParseUint(string(bytes.TrimSpace(data)), 10, 64); err == nil {
				consider(n, "the cgroup's memory limit ("+p+")")
			}
		}
	}
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur != ^uint64(0) {
		mapped := uint64(0)
		if data, err := os.ReadFile("/proc/self/statm"); err == nil {
			if f := strings.Fields(string(data)); len(f) > 0 {
				if pages, err := strconv.ParseUint(f[0], 10, 64); err == nil {
					mapped = pages * uint64(os.Getpagesize())
				}
			}
		}
		left := uint64(0)
		if rl.Cur > mapped {
			left = rl.Cur - mapped
		}
		consider(left, "the address-space limit (ulimit -v) less what the process has mapped")
	}
}
