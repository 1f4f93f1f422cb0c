package network_test

import (
	"fmt"
	"github.com/urim-rl/urim/agents/agenttest"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// TestPrecisionSpecs: precision=int8 builds az and neural agents that say so
// in their description and play legal moves; another name is refused.
func TestPrecisionSpecs(t *testing.T) {
	for _, spec := range []string{"az:ckpt=" + shippedModel + ",sims=16,precision=int8", "neural:ckpt=" + shippedModel + ",precision=int8"} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if d := fmt.Sprint(a); !strings.Contains(d, "precision=int8") {
			t.Errorf("%s: description %q does not say precision=int8", spec, d)
		}
		s := env.MustGame(env.Urim).Start()
		act, err := a.Act(&s)
		if err != nil || !s.Legal().Has(act) {
			t.Errorf("%s: Act = %d, %v", spec, act, err)
		}
		agents.Close(a)
	}
	agenttest.SpecError(t, "az:ckpt="+shippedModel+",precision=fp16", `precision="fp16": want fp32|int8`)
	agenttest.SpecError(t, "neural:ckpt="+shippedModel+",precision=bf16", `precision="bf16": want fp32|int8`)
}
