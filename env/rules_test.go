package env

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// moveCase is one board, one move and the board expected after it, in the
// notation of State.String (history omitted: every case starts fresh).
type moveCase struct {
	name   string
	rules  Rules
	before string
	action int
	after  string
	end    EndReason
}

func TestMoves(t *testing.T) {
	slamOff := Urim
	slamOff.GrandSlam = GrandSlamNoCapture
	cases := []moveCase{
		{name: "lap of 12 skips the origin", rules: Urim,
			before: "12,0,0,0,0,0/4,4,4,4,4,4 0-0 S 0", action: 0,
			after: "0,2,1,1,1,1/5,5,5,5,5,5 0-0 N 1"},
		{name: "lap of 14 on 2x7 skips the origin", rules: Urim7,
			before: "0,0,0,14,0,0,0/4,4,4,4,4,4,4 0-0 S 0", action: 3,
			after: "1,1,1,0,2,1,1/5,5,5,5,5,5,5 0-0 N 1"},
		{name: "a pit at capacity 17 is skipped", rules: Urim,
			before: "0,0,0,0,0,3/17,0,0,0,0,0 16-0 S 0", action: 5,
			after: "0,0,0,0,0,0/17,1,1,1,0,0 16-0 N 1"},
		{name: "a lap skips full pits and the origin, then captures", rules: Urim,
			before: "17,0,0,0,0,13/0,0,0,0,0,0 3-3 S 0", action: 5,
			after: "17,1,1,1,1,0/0,0,0,1,1,1 9-3 N 1"},
		{name: "last seed making 2 captures", rules: Urim,
			before: "0,0,0,0,0,2/1,1,0,0,0,0 16-16 S 0", action: 5,
			after: "0,0,0,0,0,0/0,0,0,0,0,0 20-16 N 1", end: EndNoLegalMove},
		{name: "last seed making 3 captures", rules: Urim,
			before: "0,0,0,0,1,2/0,2,5,0,0,0 13-13 S 0", action: 5,
			after: "0,0,0,0,1,0/1,0,5,0,0,0 16-13 N 1"},
		{name: "last seed making 1 does not capture", rules: Urim,
			before: "0,0,0,0,0,1/0,5,0,0,0,0 15-15 S 0", action: 5,
			after: "0,0,0,0,0,0/1,5,0,0,0,0 15-15 N 1"},
		{name: "last seed making 4 does not capture, even after 2s and 3s", rules: Urim,
			before: "0,0,0,0,0,3/2,1,3,0,0,0 14-13 S 0", action: 5,
			after: "0,0,0,0,0,0/3,2,4,0,0,0 14-13 N 1"},
		{name: "2 or 3 in the own row does not capture", rules: Urim,
			before: "2,1,0,0,0,0/0,0,0,0,0,3 15-15 S 0", action: 0,
			after: "0,2,1,0,0,0/0,0,0,0,0,3 15-15 N 1"},
		{name: "chain over 4, 3 and 2 up to the edge of the row", rules: Urim,
			before: "0,0,0,0,0,4/3,2,1,1,0,1 24-0 S 0", action: 5,
			after: "0,0,0,0,0,0/0,0,0,0,0,1 35-0 N 1"},
		{name: "oware's chain stops at a 4", rules: Oware,
			before: "0,0,0,0,0,4/3,2,1,1,0,1 18-18 S 0", action: 5,
			after: "0,0,0,0,0,0/4,0,0,0,0,1 25-18 N 1", end: EndMajority},
		{name: "chain stops at a pit that fails", rules: Urim,
			before: "0,0,0,0,0,4/1,0,1,1,0,2 27-0 S 0", action: 5,
			after: "0,0,0,0,0,0/2,1,0,0,0,2 31-0 N 1"},
		{name: "North captures in South's row", rules: Urim,
			before: "1,1,0,0,0,0/0,0,0,0,0,2 16-16 N 0", action: 5,
			after: "0,0,0,0,0,0/0,0,0,0,0,0 16-20 S 1", end: EndNoLegalMove},
		{name: "grand slam captures by default", rules: Urim,
			before: "0,0,0,0,0,4/3,2,1,1,0,0 25-0 S 0", action: 5,
			after: "0,0,0,0,0,0/0,0,0,0,0,0 36-0 N 1", end: EndNoLegalMove},
		{name: "grand slam captures nothing under no_capture", rules: slamOff,
			before: "1,0,0,0,0,4/3,2,1,1,0,0 24-0 S 0", action: 5,
			after: "1,0,0,0,0,0/4,3,2,2,0,0 24-0 N 1"},
		{name: "no_capture still takes a capture that leaves seeds", rules: slamOff,
			before: "0,0,0,0,0,4/3,2,1,1,0,1 24-0 S 0", action: 5,
			after: "0,0,0,0,0,0/0,0,0,0,0,1 35-0 N 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := MustGame(c.rules)
			s, err := g.ParsePosition(c.before)
			if err != nil {
				t.Fatal(err)
			}
			next, err := s.Apply(c.action)
			if err != nil {
				t.Fatal(err)
			}
			if got := positionOnly(next.String()); got != c.after {
				t.Errorf("after %d:\n got %s\nwant %s", c.action, got, c.after)
			}
			if next.Reason() != c.end {
				t.Errorf("end = %s, want %s", next.Reason(), c.end)
			}
			if s.String() != c.before {
				t.Errorf("Apply changed its receiver to %s", s.String())
			}
		})
	}
}

// positionOnly drops the history field of a position's notation.
func positionOnly(text string) string {
	f := strings.Fields(text)
	return strings.Join(f[:4], " ")
}

func TestFeeding(t *testing.T) {
	cases := []struct {
		rules  Rules
		pos    string
		legal  string
		reason EndReason
	}{
		// North is empty: only pit 5 reaches it.
		{Urim, "0,0,0,1,1,1/0,0,0,0,0,0 17-16 S 0", "[5]", Ongoing},
		// Two seeds from pit 4 reach pit 6; one from pit 3 does not.
		{Urim, "0,0,0,1,2,0/0,0,0,0,0,0 17-16 S 0", "[4]", Ongoing},
		// Pit 5 is full, so the seed from pit 4 skips it into North's row.
		{Urim, "0,0,0,0,1,17/0,0,0,0,0,0 10-8 S 0", "[4 5]", Ongoing},
		// Without capacity (oware) the same seed stops in pit 5.
		{Oware, "0,0,0,0,1,17/0,0,0,0,0,0 15-15 S 0", "[5]", Ongoing},
		// South cannot feed: the game ends and South keeps its seed.
		{Urim, "1,0,0,0,0,0/0,0,0,0,0,0 18-17 S 0", "[]", EndNoLegalMove},
		// South's row is empty: no move at all.
		{Urim, "0,0,0,0,0,0/0,3,0,0,0,0 17-16 S 0", "[]", EndNoLegalMove},
		// North must feed South.
		{Urim, "0,0,0,0,0,0/0,0,0,0,1,2 17-16 N 0", "[5]", Ongoing},
	}
	for _, c := range cases {
		s, err := MustGame(c.rules).ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(s.Legal().Actions()); got != c.legal {
			t.Errorf("%s: legal %s, want %s", c.pos, got, c.legal)
		}
		if s.Reason() != c.reason {
			t.Errorf("%s: end %s, want %s", c.pos, s.Reason(), c.reason)
		}
	}
}

func TestLeftoverSeedsGoToTheirRowsOwner(t *testing.T) {
	s, err := MustGame(Urim).ParsePosition("1,0,0,0,0,0/0,0,0,0,0,0 18-17 S 0")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Terminal() {
		t.Fatal("South cannot feed North, yet the game goes on")
	}
	if f := s.FinalStores(); f != [2]int{19, 17} {
		t.Fatalf("final stores %v, want [19 17]", f)
	}
	if s.Winner() != 0 || s.MatchPoints() != [2]int{1, 0} {
		t.Fatalf("winner %d, match points %v", s.Winner(), s.MatchPoints())
	}
}

// TestRepetition walks one seed per player round the board: after 12 forced
// plies the start position is back, and the game ends as a draw.
func TestRepetition(t *testing.T) {
	s, err := MustGame(Urim).ParsePosition("1,0,0,0,0,0/1,0,0,0,0,0 17-17 S 0")
	if err != nil {
		t.Fatal(err)
	}
	for ply := 1; ply <= 12; ply++ {
		if s.Terminal() {
			t.Fatalf("ended (%s) at ply %d, before the repetition", s.Reason(), s.Ply())
		}
		if s.Legal().Count() != 1 {
			t.Fatalf("ply %d: %d legal moves, want 1 (forced)", ply, s.Legal().Count())
		}
		s.Play(s.Legal().Nth(0))
	}
	if s.Reason() != EndRepetition {
		t.Fatalf("after 12 plies: end %s, want repetition (%s)", s.Reason(), s)
	}
	if s.Winner() != -1 || s.FinalStores() != [2]int{18, 18} || s.Rewards(RewardMatchPoints) != [2]float32{0, 0} {
		t.Fatalf("winner %d, stores %v: want a draw 18-18", s.Winner(), s.FinalStores())
	}
}

func TestMatchPointThresholds(t *testing.T) {
	cases := []struct {
		stores [2]int
		total  int
		want   [2]int
	}{
		{[2]int{27, 9}, 36, [2]int{2, 0}},  // ceil(3·36/4) = 27
		{[2]int{26, 10}, 36, [2]int{1, 0}}, // one short of the slam threshold
		{[2]int{19, 17}, 36, [2]int{1, 0}}, // more than 18
		{[2]int{18, 18}, 36, [2]int{0, 0}}, // a draw
		{[2]int{10, 32}, 42, [2]int{0, 2}}, // ceil(3·42/4) = 32
		{[2]int{11, 31}, 42, [2]int{0, 1}},
		{[2]int{20, 22}, 42, [2]int{0, 1}}, // more than 21
		{[2]int{21, 21}, 42, [2]int{0, 0}},
		{[2]int{36, 12}, 48, [2]int{2, 0}}, // ceil(3·48/4) = 36
		{[2]int{35, 13}, 48, [2]int{1, 0}},
		{[2]int{25, 23}, 48, [2]int{1, 0}},
		{[2]int{24, 24}, 48, [2]int{0, 0}},
	}
	for _, c := range cases {
		if got := MatchPoints(c.stores, c.total); got != c.want {
			t.Errorf("MatchPoints(%v, %d) = %v, want %v", c.stores, c.total, got, c.want)
		}
	}
}

func TestRewards(t *testing.T) {
	s, _ := MustGame(Urim).ParsePosition("0,0,0,0,0,0/0,0,0,0,0,0 27-9 N 40")
	if r := s.Rewards(RewardMatchPoints); r != [2]float32{1, -1} {
		t.Errorf("match points reward %v", r)
	}
	if r := s.Rewards(RewardWinLoss); r != [2]float32{1, -1} {
		t.Errorf("win/loss reward %v", r)
	}
	if r := s.Rewards(RewardSeedMargin); r != [2]float32{0.5, -0.5} {
		t.Errorf("seed margin reward %v", r)
	}
	s, _ = MustGame(Urim).ParsePosition("0,0,0,0,0,0/0,0,0,0,0,0 16-20 N 40")
	if r := s.Rewards(RewardMatchPoints); r != [2]float32{-0.5, 0.5} {
		t.Errorf("match points reward %v", r)
	}
}

func TestPlyCapTruncates(t *testing.T) {
	r := Urim
	r.MaxPlies = 10
	g := MustGame(r)
	s := g.Start()
	for !s.Terminal() {
		s.Play(s.Legal().Nth(0))
	}
	if s.Ply() != 10 || !s.Truncated() || s.Reason() != EndPlyCap {
		t.Fatalf("ply %d, truncated %v, reason %s", s.Ply(), s.Truncated(), s.Reason())
	}
}

func TestIllegalActions(t *testing.T) {
	g := MustGame(Urim)
	s, _ := g.ParsePosition("0,0,0,1,1,1/0,0,0,0,0,0 17-16 S 0")
	for _, c := range []struct {
		action int
		want   string
	}{
		{-1, "out of range"}, {6, "out of range"}, {0, "pit is empty"}, {3, "does not feed"},
	} {
		_, err := s.Apply(c.action)
		if !errors.Is(err, ErrIllegal) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "legal: [5]") {
			t.Errorf("Apply(%d) error = %v, want ErrIllegal mentioning %q and the legal moves", c.action, err, c.want)
		}
	}
	end, _ := g.ParsePosition("1,0,0,0,0,0/0,0,0,0,0,0 18-17 S 0")
	if _, err := end.Apply(0); !errors.Is(err, ErrGameOver) {
		t.Errorf("Apply after the end: %v, want ErrGameOver", err)
	}
}

func TestValidate(t *testing.T) {
	for _, name := range PresetNames() {
		r, _ := PresetRules(name)
		if err := r.Validate(); err != nil {
			t.Errorf("preset %s: %v", name, err)
		}
	}
	cases := []struct {
		edit  func(*Rules)
		field string
	}{
		{func(r *Rules) { r.PitsPerRow = 9 }, "pits_per_row"},
		{func(r *Rules) { r.SeedsPerPit = 0 }, "seeds_per_pit"},
		{func(r *Rules) { r.Capacity = 2 }, "capacity"},
		{func(r *Rules) { r.Trigger = nil }, "trigger"},
		{func(r *Rules) { r.Trigger = []int{2, 2} }, "trigger"},
		{func(r *Rules) { r.Chain = []int{0} }, "chain"},
		{func(r *Rules) { r.GrandSlam = "sometimes" }, "grand_slam"},
		{func(r *Rules) { r.MaxPlies = -1 }, "max_plies"},
	}
	for _, c := range cases {
		r, _ := PresetRules("urim")
		c.edit(&r)
		err := r.Validate()
		var re *RulesError
		if !errors.As(err, &re) || re.Field != c.field {
			t.Errorf("%+v: error %v, want one about %s", r, err, c.field)
		}
	}
	r, _ := PresetRules("urim")
	r.Trigger = nil
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "chain") {
		t.Errorf("chain without trigger: %v, want an error naming the chain", err)
	}
	if _, err := Preset("mancala"); !errors.Is(err, ErrUnknownPreset) || !strings.Contains(err.Error(), "urim7") {
		t.Errorf("unknown preset: %v", err)
	}
}
