package env

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// vecRefObs is the observation of s written the slow, obvious way from the
// public API, as docs/tensors.md describes it: the check on Encoder.
func vecRefObs(s *State, enc Encoding) []float32 {
	g := s.Game()
	p, seeds, total := g.PitsPerRow(), float32(g.Rules().SeedsPerPit), float32(g.Total())
	me := s.ToMove()
	var out []float32
	for _, side := range []int{me, 1 - me} {
		for a := 0; a < p; a++ {
			n := s.Pit(side*p + a)
			if enc == EncodingCompact {
				out = append(out, float32(n)/seeds)
				continue
			}
			for k := 1; k <= ThermometerLevels; k++ {
				out = append(out, vecB2F(n >= k))
			}
			out = append(out, float32(max(n-ThermometerLevels, 0))/seeds)
		}
	}
	plyDen := float32(256)
	if c := g.Rules().MaxPlies; c > 0 {
		plyDen = float32(c)
	}
	return append(out,
		float32(s.Store(me))/total,
		float32(s.Store(1-me))/total,
		min(float32(s.Ply())/plyDen, 1),
		min(float32(s.Quiet())/64, 1),
		float32(me))
}

// vecPly returns the ply of game i of v.
func vecPly(v *Vec, i int) int {
	s := v.State(i)
	return s.Ply()
}

func vecB2F(b bool) float32 {
	if b {
		return 1
	}
	return 0
}

// vecClose reports whether a and b agree to float32 rounding (the encoder
// multiplies by 1/S where the reference divides by S).
func vecClose(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-6 {
			return false
		}
	}
	return true
}

func newTestVec(t testing.TB, g *Game, n int, opt VecOptions) *Vec {
	t.Helper()
	v, err := NewVec(g, n, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

// checkVecGame checks every tensor row of game i against the single state s.
func checkVecGame(t *testing.T, v *Vec, i int, s *State, step int) {
	t.Helper()
	d, p := v.ObsDim(), v.Actions()
	if got := v.State(i); got.String() != s.String() || got.Reason() != s.Reason() {
		t.Fatalf("step %d game %d: state %q (%v), single game %q (%v)", step, i, got.String(), got.Reason(), s.String(), s.Reason())
	}
	if want := vecRefObs(s, v.Options().Encoding); !vecClose(v.Obs()[i*d:(i+1)*d], want) {
		t.Fatalf("step %d game %d: obs %v, want %v", step, i, v.Obs()[i*d:(i+1)*d], want)
	}
	for a := 0; a < p; a++ {
		if got, want := v.Mask()[i*p+a], vecB2F(s.Legal().Has(a)); got != want {
			t.Fatalf("step %d game %d: mask[%d] = %v, engine legal %v", step, i, a, got, s.Legal().Actions())
		}
	}
	if v.Legal()[i] != s.Legal() || v.ToMove()[i] != int32(s.ToMove()) {
		t.Fatalf("step %d game %d: legal %v to move %d, want %v and %d", step, i, v.Legal()[i], v.ToMove()[i], s.Legal(), s.ToMove())
	}
}

// TestVecMatchesSingleStates steps a batch and, beside it, one State per
// game with the same actions under AutoResetNextStep: states, observations,
// masks, rewards, flags and episode records must agree at every step.
func TestVecMatchesSingleStates(t *testing.T) {
	capped := Urim
	capped.MaxPlies = 40 // short enough that many random games are truncated
	capped.Name = "urim-capped"
	for _, c := range []struct {
		rules Rules
		opt   VecOptions
	}{
		{Urim, VecOptions{Workers: 3}},
		{Urim7, VecOptions{Workers: 2, Encoding: EncodingThermometer, Reward: RewardSeedMargin}},
		{Oware, VecOptions{Workers: 1, Reward: RewardWinLoss}},
		{capped, VecOptions{Workers: 4, Encoding: EncodingThermometer}},
	} {
		t.Run(c.rules.Name, func(t *testing.T) {
			const n, steps = 23, 400 // several episodes per game
			g := MustGame(c.rules)
			v := newTestVec(t, g, n, c.opt)
			ref := make([]State, n)
			done := make([]bool, n)
			for i := range ref {
				ref[i] = g.Start()
				checkVecGame(t, v, i, &ref[i], 0)
			}
			rng := rand.New(rand.NewPCG(7, 11))
			actions := make([]int32, n)
			var want []Episode
			sawTrunc, sawTerm := false, false
			for step := 1; step <= steps; step++ {
				for i := range actions {
					actions[i] = -1 // ignored for a game waiting for its reset
					if !done[i] {
						m := ref[i].Legal()
						actions[i] = int32(m.Nth(rng.IntN(m.Count())))
					}
				}
				if err := v.Step(actions); err != nil {
					t.Fatal(err)
				}
				for i := range ref {
					var r [2]float32
					term, trunc := false, false
					if done[i] {
						ref[i], done[i] = g.Start(), false
					} else {
						ref[i].Play(int(actions[i]))
						if ref[i].Terminal() {
							done[i] = true
							r = ref[i].Rewards(v.Options().Reward)
							trunc = ref[i].Truncated()
							term = !trunc
							sawTrunc, sawTerm = sawTrunc || trunc, sawTerm || term
							want = append(want, Episode{Game: i, Plies: ref[i].Ply(), Steps: ref[i].Ply(),
								Stores: ref[i].FinalStores(), MatchPoints: ref[i].MatchPoints(), Rewards: r,
								Reason: ref[i].Reason(), Truncated: trunc})
						}
					}
					checkVecGame(t, v, i, &ref[i], step)
					if got := [2]float32(v.Rewards()[2*i:]); got != r {
						t.Fatalf("step %d game %d: rewards %v, want %v", step, i, got, r)
					}
					if v.Terminated()[i] != term || v.Truncated()[i] != trunc {
						t.Fatalf("step %d game %d: terminated %v truncated %v, want %v %v", step, i,
							v.Terminated()[i], v.Truncated()[i], term, trunc)
					}
				}
			}
			if !reflect.DeepEqual(v.Episodes(), want) {
				t.Fatalf("episodes differ:\n got %+v\nwant %+v", v.Episodes(), want)
			}
			if !sawTerm || (c.rules.MaxPlies > 0 && !sawTrunc) {
				t.Fatalf("the run ended no game (terminated %v, truncated %v): lengthen it", sawTerm, sawTrunc)
			}
		})
	}
}

// TestVecEncodingPointOfView checks a hand-written position with North to
// move: North's pits come first, then South's, then North's store.
func TestVecEncodingPointOfView(t *testing.T) {
	g := MustGame(Urim)
	// 15 + 13 seeds on the board and 5 + 3 in the stores make T = 36.
	s, err := g.ParsePosition("0,1,2,3,4,5/6,7,0,0,0,0 5-3 N 10")
	if err != nil {
		t.Fatal(err)
	}
	compact := make([]float32, EncodingCompact.Dim(g))
	NewEncoder(g, EncodingCompact).Encode(compact, &s)
	want := []float32{6. / 3, 7. / 3, 0, 0, 0, 0, 0, 1. / 3, 2. / 3, 1, 4. / 3, 5. / 3,
		3. / 36, 5. / 36, 10. / 256, 0, 1}
	if !vecClose(compact, want) {
		t.Fatalf("compact = %v\nwant      %v", compact, want)
	}
	therm := make([]float32, EncodingThermometer.Dim(g))
	NewEncoder(g, EncodingThermometer).Encode(therm, &s)
	// Own pit 1 holds 7: seven ones, five zeros, no excess.
	if got := therm[13 : 13+13]; !vecClose(got, []float32{1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("thermometer own pit 1 = %v", got)
	}
	if got, want := EncodingThermometer.Dim(g), 2*6*13+5; got != want || len(EncodingThermometer.Columns(g)) != want {
		t.Fatalf("thermometer dim %d, columns %d, want %d", got, len(EncodingThermometer.Columns(g)), want)
	}
	// A pit over ThermometerLevels: 14 seeds is 12 ones and an excess of 2/S.
	big, err := g.ParsePosition("14,0,0,0,0,0/1,1,0,0,0,0 10-10 S 30")
	if err != nil {
		t.Fatal(err)
	}
	NewEncoder(g, EncodingThermometer).Encode(therm, &big)
	if got := therm[:13]; !vecClose(got, []float32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2. / 3}) {
		t.Fatalf("thermometer pit of 14 = %v", got)
	}
}

func TestVecColumns(t *testing.T) {
	for _, name := range PresetNames() {
		g, _ := Preset(name)
		for _, enc := range []Encoding{EncodingCompact, EncodingThermometer} {
			cols := enc.Columns(g)
			if len(cols) != enc.Dim(g) {
				t.Fatalf("%s %s: %d columns, Dim %d", name, enc, len(cols), enc.Dim(g))
			}
			seen := map[string]bool{}
			for _, c := range cols {
				if seen[c] {
					t.Fatalf("%s %s: column %q twice", name, enc, c)
				}
				seen[c] = true
			}
		}
	}
	g := MustGame(Urim)
	if got := strings.Join(EncodingCompact.Columns(g)[:2], " "); got != "own_pit_0 own_pit_1" {
		t.Fatalf("compact columns start %q", got)
	}
}

// vecPlayUntilDone steps game 0 of v with random legal actions (the others
// get theirs too) until game 0 ends; it returns game 0's last state.
func vecPlayUntilDone(t *testing.T, v *Vec, rng *uint64) State {
	t.Helper()
	actions := make([]int32, v.Len())
	for range 10000 {
		RandomActions(actions, v.Legal(), rng)
		before := v.State(0)
		before.Play(int(actions[0]))
		if err := v.Step(actions); err != nil {
			t.Fatal(err)
		}
		if before.Terminal() {
			return before
		}
	}
	t.Fatal("game 0 never ended")
	return State{}
}

func TestVecAutoResetNextStep(t *testing.T) {
	g := MustGame(Urim)
	v := newTestVec(t, g, 3, VecOptions{Workers: 2})
	rng := uint64(3)
	last := vecPlayUntilDone(t, v, &rng)
	d := v.ObsDim()
	if !v.Terminated()[0] || v.Truncated()[0] || !v.Done(0) {
		t.Fatalf("ended game: terminated %v truncated %v done %v", v.Terminated()[0], v.Truncated()[0], v.Done(0))
	}
	if r := [2]float32(v.Rewards()[:2]); r != last.Rewards(RewardMatchPoints) {
		t.Fatalf("rewards %v, want %v", r, last.Rewards(RewardMatchPoints))
	}
	if !vecClose(v.Obs()[:d], vecRefObs(&last, EncodingCompact)) || v.Legal()[0] != 0 {
		t.Fatalf("ended game shows obs %v legal %v, want its final position and no legal move", v.Obs()[:d], v.Legal()[0])
	}
	// The next step ignores game 0's action, even a nonsense one.
	actions := make([]int32, 3)
	RandomActions(actions, v.Legal(), &rng)
	actions[0] = 99
	if err := v.Step(actions); err != nil {
		t.Fatal(err)
	}
	start := g.Start()
	if s := v.State(0); s.String() != start.String() || v.Terminated()[0] || v.Rewards()[0] != 0 || v.Rewards()[1] != 0 {
		t.Fatalf("after reset: %v terminated %v rewards %v", s.String(), v.Terminated()[0], v.Rewards()[:2])
	}
	if !vecClose(v.Obs()[:d], vecRefObs(&start, EncodingCompact)) || v.Legal()[0] != start.Legal() {
		t.Fatal("after reset the observation is not the start's")
	}
}

func TestVecAutoResetSameStep(t *testing.T) {
	g := MustGame(Urim)
	v := newTestVec(t, g, 4, VecOptions{Workers: 2, AutoReset: AutoResetSameStep})
	rng := uint64(5)
	last := vecPlayUntilDone(t, v, &rng)
	d := v.ObsDim()
	start := g.Start()
	if !v.Terminated()[0] || !v.HasFinalObs()[0] {
		t.Fatalf("terminated %v has final %v", v.Terminated()[0], v.HasFinalObs()[0])
	}
	if !vecClose(v.FinalObs()[:d], vecRefObs(&last, EncodingCompact)) {
		t.Fatal("FinalObs is not the final position")
	}
	if s := v.State(0); s.String() != start.String() || v.Done(0) {
		t.Fatalf("game 0 not restarted in the same step: %v", s.String())
	}
	if !vecClose(v.Obs()[:d], vecRefObs(&start, EncodingCompact)) || v.Legal()[0] != start.Legal() {
		t.Fatal("the observation is not the new game's")
	}
	if r := [2]float32(v.Rewards()[:2]); r != last.Rewards(RewardMatchPoints) {
		t.Fatalf("rewards %v, want the old game's %v", r, last.Rewards(RewardMatchPoints))
	}
	// The next step plays the new game and clears the flags.
	actions := make([]int32, 4)
	RandomActions(actions, v.Legal(), &rng)
	if err := v.Step(actions); err != nil {
		t.Fatal(err)
	}
	if v.Terminated()[0] || v.HasFinalObs()[0] || vecPly(v, 0) != 1 {
		t.Fatalf("next step: terminated %v has final %v ply %d", v.Terminated()[0], v.HasFinalObs()[0], vecPly(v, 0))
	}
}

func TestVecAutoResetDisabled(t *testing.T) {
	r := Urim
	r.MaxPlies = 6 // every game is truncated at ply 6, all on the same step
	g := MustGame(r)
	v := newTestVec(t, g, 5, VecOptions{Workers: 2, AutoReset: AutoResetDisabled})
	rng := uint64(9)
	vecPlayUntilDone(t, v, &rng)
	d := v.ObsDim()
	final := append([]float32(nil), v.Obs()...)
	if len(v.Episodes()) != 5 || !v.Truncated()[0] || v.Terminated()[0] {
		t.Fatalf("after 6 plies: %d episodes, truncated %v terminated %v", len(v.Episodes()), v.Truncated()[0], v.Terminated()[0])
	}
	actions := []int32{0, 1, 2, 3, 4}
	for range 3 {
		if err := v.Step(actions); err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if !v.Truncated()[i] || v.Rewards()[2*i] != 0 || v.Legal()[i] != 0 || vecPly(v, i) != 6 {
				t.Fatalf("finished game %d changed: truncated %v reward %v legal %v ply %d",
					i, v.Truncated()[i], v.Rewards()[2*i], v.Legal()[i], vecPly(v, i))
			}
		}
	}
	if !reflect.DeepEqual(final, v.Obs()) || len(v.Episodes()) != 5 {
		t.Fatalf("finished games' observations changed, or episodes recorded twice (%d)", len(v.Episodes()))
	}
	sel := []bool{false, true, false, true, false}
	if err := v.ResetMask(sel); err != nil {
		t.Fatal(err)
	}
	start := g.Start()
	for i, reset := range sel {
		s := v.State(i)
		if reset != (s.String() == start.String()) || reset == v.Truncated()[i] || reset == v.Done(i) {
			t.Fatalf("game %d (reset %v): %v truncated %v", i, reset, s.String(), v.Truncated()[i])
		}
		if reset && !vecClose(v.Obs()[i*d:(i+1)*d], vecRefObs(&start, EncodingCompact)) {
			t.Fatalf("game %d: observation after ResetMask is not the start's", i)
		}
	}
	if err := v.ResetMask(sel[:2]); err == nil {
		t.Fatal("ResetMask with 2 entries for 5 games: no error")
	}
}

// vecStreamHash runs a seeded random stream (openings, same-step resets,
// truncation) and hashes every tensor after every step, and the episodes.
func vecStreamHash(t *testing.T, workers int) uint64 {
	r := Urim
	r.MaxPlies = 60
	v := newTestVec(t, MustGame(r), 50, VecOptions{Workers: workers, Seed: 42, OpeningPlies: 5,
		AutoReset: AutoResetSameStep, Encoding: EncodingThermometer})
	h := fnv.New64a()
	write := func(p unsafe.Pointer, n int) { h.Write(unsafe.Slice((*byte)(p), n)) }
	actions := make([]int32, v.Len())
	rng := uint64(77)
	for range 300 {
		RandomActions(actions, v.Legal(), &rng)
		if err := v.Step(actions); err != nil {
			t.Fatal(err)
		}
		write(unsafe.Pointer(&v.Obs()[0]), 4*len(v.Obs()))
		write(unsafe.Pointer(&v.FinalObs()[0]), 4*len(v.FinalObs()))
		write(unsafe.Pointer(&v.Mask()[0]), 4*len(v.Mask()))
		write(unsafe.Pointer(&v.Rewards()[0]), 4*len(v.Rewards()))
		write(unsafe.Pointer(&v.ToMove()[0]), 4*len(v.ToMove()))
		write(unsafe.Pointer(&v.Terminated()[0]), len(v.Terminated()))
		write(unsafe.Pointer(&v.Truncated()[0]), len(v.Truncated()))
		write(unsafe.Pointer(&v.HasFinalObs()[0]), len(v.HasFinalObs()))
		for _, e := range v.Episodes() {
			write(unsafe.Pointer(&e), int(unsafe.Sizeof(e)))
		}
		v.ClearEpisodes()
	}
	return h.Sum64()
}

func TestVecSameStreamAnyWorkers(t *testing.T) {
	want := vecStreamHash(t, 1)
	for _, w := range []int{2, 8} {
		if got := vecStreamHash(t, w); got != want {
			t.Fatalf("stream hash with %d workers %x, with 1 worker %x", w, got, want)
		}
	}
}

func TestVecIllegalError(t *testing.T) {
	g := MustGame(Urim)
	v := newTestVec(t, g, 6, VecOptions{Workers: 2})
	// South and then North play their pit 0: South's pit 0 is now empty.
	for range 2 {
		if err := v.Step(make([]int32, 6)); err != nil {
			t.Fatal(err)
		}
	}
	before := make([]string, 6)
	for i := range before {
		before[i] = v.State(i).String()
	}
	obs := append([]float32(nil), v.Obs()...)
	for _, c := range []struct {
		actions   []int32
		game, act int
		why       string
	}{
		{[]int32{1, 1, 1, 0, 1, 9}, 3, 0, "its pit is empty"}, // the lowest game index is reported
		{[]int32{1, 1, 1, 1, 1, 9}, 5, 9, "out of range 0..5"},
		{[]int32{-1, 1, 1, 1, 1, 1}, 0, -1, "out of range 0..5"},
	} {
		err := v.Step(c.actions)
		var ae *ActionError
		if !errors.As(err, &ae) || !errors.Is(err, ErrIllegal) {
			t.Fatalf("Step(%v): %v, want an *ActionError wrapping ErrIllegal", c.actions, err)
		}
		if ae.Game != c.game || ae.Action != c.act || ae.Why != c.why || !reflect.DeepEqual(ae.Legal, []int{1, 2, 3, 4, 5}) {
			t.Fatalf("Step(%v): %+v, want game %d action %d (%s), legal 1..5", c.actions, ae, c.game, c.act, c.why)
		}
		want := fmt.Sprintf("env: Vec.Step: game %d: illegal action %d, %s (legal: [1 2 3 4 5])", c.game, c.act, c.why)
		if err.Error() != want {
			t.Fatalf("message %q, want %q", err, want)
		}
	}
	for i := range before {
		if v.State(i).String() != before[i] {
			t.Fatalf("game %d changed by a failed Step", i)
		}
	}
	if !reflect.DeepEqual(obs, v.Obs()) {
		t.Fatal("observations changed by a failed Step")
	}
	if err := v.Step(make([]int32, 2)); err == nil || !strings.Contains(err.Error(), "2 actions for 6 games") {
		t.Fatalf("short action list: %v", err)
	}
}

func TestVecIllegalLoss(t *testing.T) {
	g := MustGame(Urim)
	v := newTestVec(t, g, 3, VecOptions{Workers: 2, Illegal: IllegalLoss})
	// South (player 0) plays an out-of-range action in game 1.
	if err := v.Step([]int32{0, 7, 0}); err != nil {
		t.Fatal(err)
	}
	if !v.Terminated()[1] || v.Truncated()[1] || v.Rewards()[2] != -1 || v.Rewards()[3] != 1 || v.Legal()[1] != 0 {
		t.Fatalf("game 1: terminated %v rewards %v legal %v", v.Terminated()[1], v.Rewards()[2:4], v.Legal()[1])
	}
	if v.Terminated()[0] || vecPly(v, 0) != 1 {
		t.Fatal("game 0 was disturbed")
	}
	eps := v.Episodes()
	if len(eps) != 1 || eps[0].Reason != EndIllegalAction || eps[0].Loser != 0 || eps[0].Winner() != 1 || eps[0].Game != 1 ||
		eps[0].ReasonName() != "illegal_action" || eps[0].MatchPoints != [2]int{0, 2} {
		t.Fatalf("episodes %+v", eps)
	}
	if err := v.Step([]int32{0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if v.Terminated()[1] || vecPly(v, 1) != 0 {
		t.Fatal("the forfeited game did not restart on the next step")
	}
}

func TestVecOpenings(t *testing.T) {
	g := MustGame(Urim)
	const n, k = 40, 6
	a := newTestVec(t, g, n, VecOptions{Workers: 1, Seed: 1, OpeningPlies: k})
	b := newTestVec(t, g, n, VecOptions{Workers: 3, Seed: 1, OpeningPlies: k})
	c := newTestVec(t, g, n, VecOptions{Workers: 1, Seed: 2, OpeningPlies: k})
	distinct := map[string]bool{}
	differs := 0
	for i := range n {
		sa, sb, sc := a.State(i), b.State(i), c.State(i)
		if sa.Ply() != k || sa.Terminal() {
			t.Fatalf("game %d starts at ply %d (terminal %v), want %d", i, sa.Ply(), sa.Terminal(), k)
		}
		if sa.String() != sb.String() {
			t.Fatalf("game %d: same seed, different openings %q and %q", i, sa.String(), sb.String())
		}
		if sa.String() != sc.String() {
			differs++
		}
		distinct[sa.String()] = true
	}
	// 6 random plies from the start have thousands of outcomes: 40 games
	// should almost never repeat much, and another seed should change most.
	if len(distinct) < n/2 || differs < n/2 {
		t.Fatalf("%d distinct openings of %d, %d differ under another seed", len(distinct), n, differs)
	}
	// The second episode of a game gets a new opening, the same for both.
	a.Reset()
	b.Reset()
	for i := range n {
		if x, y := a.State(i), b.State(i); x.String() != y.String() || x.Ply() != k {
			t.Fatalf("game %d episode 2: %q and %q", i, x.String(), y.String())
		}
	}
	if _, err := NewVec(MustGame(Rules{Name: "c", PitsPerRow: 6, SeedsPerPit: 3, Capacity: 17, Trigger: []int{2, 3},
		GrandSlam: GrandSlamCapture, MaxPlies: 4}), 1, VecOptions{OpeningPlies: 4}); err == nil {
		t.Fatal("an opening as long as the ply cap was accepted")
	}
}

func TestVecOptionErrors(t *testing.T) {
	g := MustGame(Urim)
	for _, c := range []struct {
		n    int
		opt  VecOptions
		want string
	}{
		{0, VecOptions{}, "at least 1"},
		{4, VecOptions{Workers: -1}, "Workers"},
		{4, VecOptions{OpeningPlies: -2}, "OpeningPlies"},
		{4, VecOptions{OpeningPlies: 1000}, "OpeningPlies"},
		{4, VecOptions{Encoding: 9}, "Encoding"},
		{4, VecOptions{AutoReset: 9}, "AutoReset"},
		{4, VecOptions{Illegal: 9}, "Illegal"},
		{4, VecOptions{Reward: 9}, "Reward"},
	} {
		if _, err := NewVec(g, c.n, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewVec(%d, %+v): %v, want an error about %s", c.n, c.opt, err, c.want)
		}
	}
	v := newTestVec(t, g, 8, VecOptions{Workers: 100})
	if w := v.Options().Workers; w != 8 {
		t.Fatalf("100 workers for 8 games: %d workers, want 8", w)
	}
	if _, err := ParseEncoding("onehot"); err == nil || !strings.Contains(err.Error(), "compact, thermometer") {
		t.Fatalf("ParseEncoding: %v", err)
	}
	for _, name := range autoResetNames {
		if m, err := ParseAutoReset(name); err != nil || m.String() != name {
			t.Fatalf("ParseAutoReset(%q) = %v, %v", name, m, err)
		}
	}
	if p, err := ParseIllegalPolicy("loss"); err != nil || p != IllegalLoss {
		t.Fatalf("ParseIllegalPolicy(loss) = %v, %v", p, err)
	}
}

func TestVecClose(t *testing.T) {
	v, err := NewVec(MustGame(Urim), 8, VecOptions{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	if err := v.Close(); err != nil {
		t.Fatal("second Close:", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "after Close") {
			t.Fatalf("Step after Close: panic %v", r)
		}
	}()
	v.Step(make([]int32, 8))
}

// TestVecNoAllocs counts the allocations of 300 steps. The engine's
// repetition history allocates a block once a game goes histMoves plies
// without a capture; a 20-ply cap keeps every game below that, so any
// allocation would be the Vec's own. The cap also makes waves of games end
// on the same step, the most the episode lists must hold. On one worker there must be none. With two, a
// goroutine that parks (after vecSpin without work, common on a loaded
// machine) takes a wait record from the Go runtime, whose per-processor
// caches refill by allocating now and then (tens per 300 steps measured on
// the shared machine); an allocation in every step would still reach 300.
// testing.AllocsPerRun rounds down to whole allocations per run, so the test
// counts them itself.
func TestVecNoAllocs(t *testing.T) {
	r := Urim
	r.MaxPlies = 20
	for _, workers := range []int{1, 2} {
		for _, mode := range []AutoReset{AutoResetNextStep, AutoResetSameStep} {
			v := newTestVec(t, MustGame(r), 256, VecOptions{Workers: workers, OpeningPlies: 2, AutoReset: mode})
			actions := make([]int32, v.Len())
			rng := uint64(1)
			step := func() {
				RandomActions(actions, v.Legal(), &rng)
				if err := v.Step(actions); err != nil {
					t.Fatal(err)
				}
				v.ClearEpisodes()
			}
			for range 300 { // lets the runtime's cache of wait records fill
				step()
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			const steps = 300
			for range steps {
				step()
			}
			runtime.ReadMemStats(&after)
			n := after.Mallocs - before.Mallocs
			if workers == 1 && n != 0 || n >= steps {
				t.Fatalf("%d workers, %s: %d allocations in %d steps", workers, mode, n, steps)
			}
		}
	}
}

func TestRandomActions(t *testing.T) {
	// Masks 0b101101 (actions 0, 2, 3, 5) and 0 (a finished game).
	legal := make([]Mask, 4000)
	for i := range legal {
		if i%2 == 0 {
			legal[i] = 0b101101
		}
	}
	dst := make([]int32, len(legal))
	rng := uint64(1)
	var count [6]int
	for range 10 {
		RandomActions(dst, legal, &rng)
		for i, a := range dst {
			if legal[i] == 0 {
				if a != 0 {
					t.Fatalf("game without legal moves got %d", a)
				}
				continue
			}
			if !legal[i].Has(int(a)) {
				t.Fatalf("illegal action %d for %v", a, legal[i].Actions())
			}
			count[a]++
		}
	}
	// 20000 draws over 4 actions: 5000 each, standard deviation about 61.
	for _, a := range []int{0, 2, 3, 5} {
		if count[a] < 4700 || count[a] > 5300 {
			t.Fatalf("action %d drawn %d times of 20000, want about 5000", a, count[a])
		}
	}
}

func TestSummarizeEpisodes(t *testing.T) {
	eps := []Episode{
		{Plies: 10, Stores: [2]int{30, 6}, Rewards: [2]float32{1, -1}, Reason: EndNoLegalMove},
		{Plies: 20, Stores: [2]int{18, 18}, Reason: EndRepetition},
		{Plies: 30, Stores: [2]int{20, 16}, Rewards: [2]float32{-1, 1}, Reason: EndIllegalAction, Loser: 0},
	}
	s := SummarizeEpisodes(eps)
	if s.Episodes != 3 || s.MeanPlies != 20 || s.Wins != [2]int{1, 1} || s.Draws != 1 || s.Reasons[EndIllegalAction] != 1 ||
		s.Reasons[EndNoLegalMove] != 1 || s.Reasons[EndRepetition] != 1 || s.MeanReward != 0 {
		t.Fatalf("summary %+v", s)
	}
}

// TestVecDocsColumns checks that docs/tensors.md names every observation
// column, with the pit index written a and the level K.
func TestVecDocsColumns(t *testing.T) {
	doc, err := os.ReadFile("../docs/tensors.md")
	if err != nil {
		t.Fatal(err)
	}
	pit, level := regexp.MustCompile(`_pit_\d+`), regexp.MustCompile(`_ge\d+`)
	for _, enc := range []Encoding{EncodingCompact, EncodingThermometer} {
		for _, c := range enc.Columns(MustGame(Urim)) {
			name := level.ReplaceAllString(pit.ReplaceAllString(c, "_pit_a"), "_geK")
			if !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("docs/tensors.md does not document the %s column %s (as `%s`)", enc, c, name)
			}
		}
	}
}

// Opening gives the moves that led each game to its current episode's first
// position, after auto-resets too.
func TestVecOpening(t *testing.T) {
	g := MustGame(Urim)
	v, err := NewVec(g, 4, VecOptions{AutoReset: AutoResetSameStep, OpeningPlies: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	acts := make([]int32, 4)
	for step := 0; step < 400; step++ {
		for i := 0; i < 4; i++ {
			s := v.State(i)
			if s.Ply() == 3 {
				r := g.Start()
				for _, a := range v.Opening(i, nil) {
					r.Play(a)
				}
				if r != s {
					t.Fatalf("step %d, game %d: the opening replays to %v, the game is at %v", step, i, r, s)
				}
			}
			acts[i] = int32(s.Legal().Nth(0))
		}
		if err := v.Step(acts); err != nil {
			t.Fatal(err)
		}
	}
	if len(v.Episodes()) < 4 {
		t.Fatalf("%d episodes ended: the test checks no reset", len(v.Episodes()))
	}
}
