package splitmix

import "testing"

// The values the evaluator's and the dataset's own copies of Derive, and
// train.Derive's, gave before they moved here: runs seeded the same keep
// their games.
func TestDerivePinned(t *testing.T) {
	for _, c := range []struct {
		got, want uint64
	}{
		{Derive(0), 0xe220a8397b1dcdaf},
		{Derive(1, 2), 0x45c35442d09f4cd3},
		{Derive(7, 0x67616d65, 3), 0x1d574f4072012cec}, // dataset game 3 of seed 7
		{Derive(0xdeadbeef, 0x7365617430, 5, 1<<63), 0x8ba3085b264fca1b},
		{Chain(0), 0},
		{Chain(1, 2), 0xa3efbcce2e044f84},
		{Chain(0xdeadbeef, 0x6f70656e, 3, 4), 0x7f610abffcc605db},
	} {
		if c.got != c.want {
			t.Errorf("got %#x, want %#x", c.got, c.want)
		}
	}
}

func TestDeriveAllocatesNothing(t *testing.T) {
	var sink uint64
	if n := testing.AllocsPerRun(100, func() { sink += Derive(sink, 1, 2, 3) + Chain(sink, 4, 5) }); n != 0 {
		t.Errorf("%v allocations per call, want 0", n)
	}
}
