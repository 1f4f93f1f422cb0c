package train

import (
	"maps"
	"strings"
	"testing"
)

// A run's network travels as a spec the cluster reads without knowing the
// algorithm: its checkpoint and iteration, and the algorithm's own
// parameters, canonical and back.
func TestRunNetworkSpec(t *testing.T) {
	n := RunNetwork{Path: "runs/x/checkpoints/iter-0003.ckpt", Iter: 3, Params: map[string]string{"sims": "8"}}
	spec := n.Spec()
	if want := "run-network:ckpt=runs/x/checkpoints/iter-0003.ckpt,iter=3,sims=8"; spec != want {
		t.Errorf("spec %q, want %q", spec, want)
	}
	got, ok, err := ParseRunNetwork(spec)
	if !ok || err != nil || got.Path != n.Path || got.Iter != 3 || !maps.Equal(got.Params, n.Params) {
		t.Errorf("parsed %+v (%v, %v), want %+v", got, ok, err, n)
	}
	if _, ok, err := ParseRunNetwork("az:ckpt=x.ckpt,sims=8"); ok || err != nil {
		t.Errorf("an agent's spec: %v, %v; want not a run's network", ok, err)
	}
	for _, bad := range []string{"run-network:iter=1", "run-network:ckpt=x,iter=-1", "run-network:ckpt=x"} {
		if _, ok, err := ParseRunNetwork(bad); !ok || err == nil || !strings.Contains(err.Error(), "is not a network of the run") {
			t.Errorf("%s: %v, %v; want an error", bad, ok, err)
		}
	}
}

// An algorithm cannot say it is distributed without the means: a Remote
// without Play is refused at registration.
func TestRemoteNeedsPlay(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "Remote without Play") {
			t.Errorf("Register: %v, want a panic naming the Remote without Play", r)
		}
	}()
	Register("test-remote-without-play", Spec{New: func(*Session) (Algorithm, error) { return nil, nil }, Remote: &RemotePart{}})
}
