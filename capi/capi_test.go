package capi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// The VecEnv writes what the env.Vec under it holds, and the mover's reward.
func TestVecEnvMatchesVec(t *testing.T) {
	for _, mode := range []string{"next_step", "same_step", "disabled"} {
		e, err := NewVecEnv(VecConfig{N: 50, AutoReset: mode, Seed: 4, OpeningPlies: 2})
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := env.NewVec(e.Game(), 50, env.VecOptions{AutoReset: e.Options().AutoReset, Seed: 4, OpeningPlies: 2})
		b := newBenchBuffers(e)
		if mode == "same_step" {
			b.FinalObs, b.HasFinal = make([]float32, len(b.Obs)), make([]bool, 50)
		}
		ref.Reset()
		if err := e.Reset(b, nil); err != nil {
			t.Fatal(err)
		}
		rng := uint64(5)
		for step := range 400 {
			mover := slices.Clone(ref.ToMove())
			env.RandomActions(b.Actions, ref.Legal(), &rng)
			if err := ref.Step(b.Actions); err != nil {
				t.Fatal(err)
			}
			if err := e.Step(b); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(b.Obs, ref.Obs()) || !slices.Equal(b.Terminated, ref.Terminated()) || !slices.Equal(b.ToMove, ref.ToMove()) {
				t.Fatalf("%s: step %d: tensors differ", mode, step)
			}
			for i := range 50 {
				if b.Rewards[i] != ref.Rewards()[2*i+int(mover[i])] || b.Legal[i] != uint8(ref.Legal()[i]) {
					t.Fatalf("%s: step %d: game %d: reward or legal set differ", mode, step, i)
				}
				for a := range 6 {
					if b.Mask[i*6+a] != (ref.Mask()[i*6+a] == 1) {
						t.Fatalf("%s: step %d: game %d: mask differs", mode, step, i)
					}
				}
			}
			if mode == "disabled" && step%60 == 59 {
				sel := slices.Clone(ref.Terminated())
				for i := range sel {
					sel[i] = ref.Done(i)
				}
				ref.ResetMask(sel)
				if err := e.ResetMask(b, sel); err != nil {
					t.Fatal(err)
				}
			}
		}
		// An illegal action is refused and moves nothing.
		env.RandomActions(b.Actions, e.Vec().Legal(), &rng)
		k := slices.IndexFunc(e.Vec().Legal(), func(m env.Mask) bool { return m != 0 })
		b.Actions[k] = 9
		if err := e.Step(b); CodeOf(err) != ErrIllegal || !strings.Contains(err.Error(), fmt.Sprintf("game %d:", k)) {
			t.Errorf("illegal action: %v (code %d)", err, CodeOf(err))
		}
		e.Close()
		if err := e.Step(b); CodeOf(err) != ErrClosed {
			t.Errorf("closed: %v", err)
		}
		ref.Close()
	}
}

func TestErrorsHaveCodes(t *testing.T) {
	if _, err := NewVecEnv(VecConfig{N: 0}); CodeOf(err) != ErrArg {
		t.Errorf("0 games: %v", err)
	}
	if _, err := NewVecEnv(VecConfig{N: 4, AutoReset: "sometimes"}); CodeOf(err) != ErrArg || !strings.Contains(err.Error(), "next_step") {
		t.Errorf("bad mode: %v", err)
	}
	if _, err := NewAgent("nosuch:x=1", "", 0); CodeOf(err) != ErrSpec {
		t.Errorf("unknown agent: %v (code %d)", err, CodeOf(err))
	}
	if _, err := LoadNetwork("/nonexistent.ckpt"); CodeOf(err) != ErrIO {
		t.Errorf("missing checkpoint: %v (code %d)", err, CodeOf(err))
	}
	if _, err := NewGame("urim", "", "", "1,2/3 0-0 S 0"); CodeOf(err) != ErrArg {
		t.Errorf("bad notation: %v", err)
	}
}

func TestGameAndAgent(t *testing.T) {
	g, err := NewGame("", "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewAgent("alphabeta:depth=3", "", 1)
	if err != nil {
		t.Fatal(err)
	}
	for !g.State().Terminal() {
		act, err := a.Act(g)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Step(act); err != nil {
			t.Fatal(err)
		}
	}
	st := g.Status()
	if !st.Terminated && !st.Truncated || st.Rewards[0] == 0 && st.Rewards[1] == 0 && g.State().Winner() != -1 {
		t.Errorf("final status %+v", st)
	}
	if err := g.Step(0); CodeOf(err) != ErrIllegal {
		t.Errorf("step after the end: %v", err)
	}
	if _, err := a.Act(g); err == nil {
		t.Error("act after the end: no error")
	}
}

// A tournament with a callback plays it, and the callback's failure stops it.
func TestTournamentWithCallback(t *testing.T) {
	calls := 0
	first := func(gm *Game) (int, error) {
		calls++
		return gm.State().Legal().Nth(0), nil
	}
	cfg := `{"games": 4, "opening_plies": 0, "paired": false, "agents": [{"name": "first", "callback": 0}, {"spec": "random"}]}`
	out, err := Tournament(context.Background(), []byte(cfg), []Callback{first})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Players []string `json:"players"`
		Played  int      `json:"played"`
		Report  string   `json:"report"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if res.Played != 4 || calls == 0 || !slices.Equal(res.Players, []string{"first", "random"}) || !strings.Contains(res.Report, "first") {
		t.Fatalf("result %+v, %d calls", res, calls)
	}
	boom := func(gm *Game) (int, error) { return 0, Errorf(ErrCall, "boom") }
	if _, err := Tournament(context.Background(), []byte(cfg), []Callback{boom}); CodeOf(err) != ErrCall {
		t.Errorf("failing callback: %v", err)
	}
	if _, err := Tournament(context.Background(), []byte(`{"agents": [{"spec": "random"}, {"spec": "nope"}]}`), nil); CodeOf(err) != ErrSpec {
		t.Errorf("bad spec: %v", err)
	}
	if _, err := Tournament(context.Background(), []byte(`{"gamez": 3}`), nil); CodeOf(err) != ErrArg {
		t.Errorf("unknown key: %v", err)
	}
	var e *Error
	if !errors.As(Errorf(ErrArg, "x"), &e) {
		t.Error("Errorf is not an *Error")
	}
}

func TestFiniteRowsNamesTheRow(t *testing.T) {
	if err := finiteRows([]float32{0, 1, 2, 3}, 2); err != nil {
		t.Fatalf("finite rows refused: %v", err)
	}
	for _, bad := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		err := finiteRows([]float32{0, 1, 2, bad}, 2)
		if err == nil || CodeOf(err) != ErrArg || !strings.Contains(err.Error(), "row 1, input 1") {
			t.Errorf("input %v: got %v, want an argument error naming row 1, input 1", bad, err)
		}
	}
}

// Under illegal "random" an unmasked random baseline plays whole games:
// every illegal action becomes a legal one, and legal actions stay.
func TestVecEnvIllegalRandomPlays(t *testing.T) {
	e, err := NewVecEnv(VecConfig{N: 32, Illegal: "random", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := e.Describe()["illegal"]; got != "random" {
		t.Fatalf("illegal %v, want random", got)
	}
	b := newBenchBuffers(e)
	if err := e.Reset(b, nil); err != nil {
		t.Fatal(err)
	}
	ended := 0
	for step := range 2000 {
		legal := slices.Clone(e.Vec().Legal())
		for i := range b.Actions {
			b.Actions[i] = int32((step*7 + i*3) % 9) // 6..8 are never legal
		}
		asked := slices.Clone(b.Actions)
		if err := e.Step(b); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for i, m := range legal {
			if m != 0 && !m.Has(int(b.Actions[i])) {
				t.Fatalf("step %d: game %d played %d, not in %08b", step, i, b.Actions[i], m)
			}
			if m.Has(int(asked[i])) && b.Actions[i] != asked[i] {
				t.Fatalf("step %d: game %d: legal action %d replaced by %d", step, i, asked[i], b.Actions[i])
			}
		}
		for i := range b.Terminated {
			if b.Terminated[i] {
				ended++
			}
		}
	}
	if ended == 0 {
		t.Fatal("no game ended")
	}
	if _, err := NewVecEnv(VecConfig{N: 1, Illegal: "lose"}); err == nil || !strings.Contains(err.Error(), "random") {
		t.Fatalf("bad policy: %v, want an error listing random", err)
	}
}
