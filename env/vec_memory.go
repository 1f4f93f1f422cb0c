package env

import (
	"fmt"
	"unsafe"

	"github.com/urim-rl/urim/internal/memlimit"
)

// VecMaxBytes is the most memory [NewVec] allocates for one batch: 4 GiB.
// A bigger batch is refused with an error giving the figure, instead of
// the process dying out of memory. A program that means it may raise it.
var VecMaxBytes int64 = 4 << 30

// VecBytes returns the memory NewVec allocates for n games of g with opt:
// the states, the bit masks, the observation, mask and reward rows, the
// flags and the episode records (the final observations too, with
// AutoResetSameStep). It does not allocate.
func VecBytes(g *Game, n int, opt VecOptions) int64 {
	return int64(n) * vecBytesPerGame(g, opt)
}

func vecBytesPerGame(g *Game, opt VecOptions) int64 {
	d := int64(opt.Encoding.Dim(g))
	perGame := int64(unsafe.Sizeof(State{})) + int64(unsafe.Sizeof(Mask(0))) +
		4*d + 4*int64(g.p) + 2*4 + // obs, mask, rewards
		3 + 4 + 8 + // terminated, truncated, done; toMove; episode
		2*int64(unsafe.Sizeof(Episode{})) // the Vec's records and its workers'
	if opt.AutoReset == AutoResetSameStep {
		perGame += 4*d + 1
	}
	return perGame
}

// CheckVecMemory reports an error giving the figure if NewVec would need
// more than VecMaxBytes for n games of g with opt, or more than the memory
// the process may use (internal/memlimit); NewVec calls it, and a
// program can call it before a long run.
func CheckVecMemory(g *Game, n int, opt VecOptions) error {
	per := vecBytesPerGame(g, opt)
	if int64(n) > VecMaxBytes/per { // no overflow for any n
		return fmt.Errorf("env: NewVec: %d games need %.1f GB of memory (%d bytes a game), over the limit of %.1f GB (env.VecMaxBytes)",
			n, float64(n)*float64(per)/1e9, per, float64(VecMaxBytes)/1e9)
	}
	// Under VecMaxBytes, the batch must still fit in the memory the process
	// may use (a container's, ulimit -v's).
	if err := memlimit.Check(fmt.Sprintf("env: NewVec: %d games (%d bytes a game)", n, per), uint64(n)*uint64(per)); err != nil {
		return err
	}
	return nil
}
