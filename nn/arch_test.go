package nn

import (
	"strings"
	"testing"
)

// TestArchSizeLimit: the widest and deepest trunk allowed by MaxWidth and
// MaxDepth would need gigabytes; Validate refuses it, naming the size,
// before anything is allocated.
func TestArchSizeLimit(t *testing.T) {
	for _, a := range []Arch{
		{Kind: KindResMLP, Width: MaxWidth, Depth: MaxDepth},
		{Kind: KindMLP, Width: MaxWidth, Depth: 9},
	} {
		if err := a.Validate(); err == nil || !strings.Contains(err.Error(), "weights") {
			t.Errorf("%v: Validate() = %v, want a size error", a, err)
		}
	}
	for _, a := range []Arch{
		{Kind: KindMLP, Width: MaxWidth, Depth: 8},
		{Kind: KindResMLP, Width: 1024, Depth: 64},
		DefaultArch(),
	} {
		if err := a.Validate(); err != nil {
			t.Errorf("%v: %v", a, err)
		}
	}
}
