package splitmix

import "testing"

// The first outputs of SplitMix64 seeded with 0 (Vigna's reference
// splitmix64.c): Mix(k·γ) is the (k+1)-th output.
func TestMixMatchesReference(t *testing.T) {
	const gamma = 0x9E3779B97F4A7C15
	want := []uint64{0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F}
	for k, w := range want {
		if got := Mix(uint64(k) * gamma); got != w {
			t.Errorf("output %d: %#x, want %#x", k, got, w)
		}
	}
}
