package tablebase

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"hash/crc32"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/urim-rl/urim/env"
)

var (
	storedSeeds = flag.Int("tb.stored-seeds", 4, "TestStoredBestIsTheAnalysis checks every position with up to this many seeds (the build's analysis of the moves took about 1 s at 5 seeds, 25 s at 6, 80 s at 7 on the project's loaded 2-core machine)")
	sampleSeeds = flag.Int("tb.sample-seeds", 0, "TestKeepsIsTheAnalysis draws positions with this many seeds from a table of as many (0: skip; CI runs 14)")
	samples     = flag.Int("tb.samples", 10000, "the positions TestKeepsIsTheAnalysis draws")
)

// analysedBest returns the mask of the moves Best lists for s by the full
// analysis of its run (no stored best moves).
func analysedBest(t testing.TB, tb *Table, s *env.State) env.Mask {
	t.Helper()
	moves, err := tb.Moves(s)
	if err != nil {
		t.Fatalf("%s: %v", s.String(), err)
	}
	var m env.Mask
	for _, mv := range Best(moves) {
		m |= env.Mask(1) << mv.Action
	}
	return m
}

// TestStoredBestIsTheAnalysis builds urim to -tb.stored-seeds with the
// stored best moves and checks, on every position (both players to move,
// fresh history), that BestSet equals the moves Best lists by the full
// analysis, and that Best itself, from the stored moves, lists the same
// moves in the same order, exact positions as best and the others as
// keeps-bound. It also checks that a position reached with a history
// gets the analysis of that history from Best, and the stored set from
// BestSet.
func TestStoredBestIsTheAnalysis(t *testing.T) {
	k := *storedSeeds
	if testing.Short() {
		k = min(k, 3)
	}
	g := env.MustGame(env.Urim)
	tb, _, err := Build(context.Background(), env.Urim, k, Options{StoreMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	if !tb.HasStoredMoves() {
		t.Fatal("a build with StoreMoves has no stored best moves")
	}
	checked, orders, withHistory := 0, 0, 0
	eachPosition(t, g, tb, k, func(s *env.State, e Entry) {
		got, err := tb.BestSet(s)
		if err != nil {
			t.Fatalf("%s: %v", s.String(), err)
		}
		if s.Terminal() {
			if got != 0 {
				t.Fatalf("%s: a finished game has best moves %v", s.String(), got.Actions())
			}
			return
		}
		want := analysedBest(t, tb, s)
		if got != want {
			t.Fatalf("%s: stored best moves %v, the analysis says %v", s.String(), got.Actions(), want.Actions())
		}
		full, err := tb.Moves(s)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := tb.Best(s)
		if err != nil {
			t.Fatal(err)
		}
		slow := Best(full)
		if len(fast) != len(slow) {
			t.Fatalf("%s: Best gives %d moves, the analysis %d", s.String(), len(fast), len(slow))
		}
		for i := range fast {
			if fast[i].Action != slow[i].Action || fast[i].Status != slow[i].Status || fast[i].Lower != slow[i].Lower {
				t.Fatalf("%s: Best's move %d is %+v, the analysis's %+v", s.String(), i, fast[i], slow[i])
			}
			if fast[i].Upper != slow[i].Upper {
				orders++ // the history can lower a best move's upper bound: Best gives the fresh figure
			}
		}
		checked++
		// With a history, Best analyses the run and BestSet stays the
		// position's.
		if checked%5 != 0 {
			return
		}
		c := *s
		c.Play(s.Legal().Nth(0))
		if c.Terminal() || c.Quiet() == 0 {
			return
		}
		best, err := tb.Best(&c)
		if err != nil {
			t.Fatal(err)
		}
		var m env.Mask
		for _, mv := range best {
			m |= env.Mask(1) << mv.Action
		}
		if want := analysedBest(t, tb, &c); m != want {
			t.Fatalf("%s with a history: Best %v, the analysis %v", c.String(), m.Actions(), want.Actions())
		}
		f := c.Fresh()
		set, err := tb.BestSet(&c)
		if err != nil {
			t.Fatal(err)
		}
		if want := analysedBest(t, tb, &f); set != want {
			t.Fatalf("%s: BestSet %v, the fresh analysis %v", c.String(), set.Actions(), want.Actions())
		}
		withHistory++
	})
	t.Logf("%d positions up to %d seeds: every stored set is the analysis's; %d best moves with an upper bound the history lowers", checked, k, orders)
	if checked == 0 {
		t.Fatal("no position checked")
	}
	if withHistory == 0 {
		t.Fatal("no position with a history checked")
	}
}

// TestKeepsIsTheAnalysis checks, on -tb.samples positions with
// -tb.sample-seeds seeds drawn uniformly (CI: 10,000 of 14 seeds), that
// the build's analysis of a position (keeps, what Options.StoreMoves
// stores) equals the moves Best lists by the full analysis.
func TestKeepsIsTheAnalysis(t *testing.T) {
	k := *sampleSeeds
	if k == 0 {
		t.Skip("-tb.sample-seeds 0")
	}
	g := env.MustGame(env.Urim)
	tb, _, err := Build(context.Background(), env.Urim, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(28, uint64(k)))
	checked := 0
	for range *samples {
		s, err := tb.Sample(g, k, r)
		if err != nil {
			t.Fatal(err)
		}
		if s.Terminal() {
			continue
		}
		got, err := tb.keeps(&s)
		if err != nil {
			t.Fatal(err)
		}
		if want := analysedBest(t, tb, &s); got != want {
			t.Fatalf("%s: the build's analysis %v, the full analysis %v", s.String(), got.Actions(), want.Actions())
		}
		checked++
	}
	t.Logf("%d positions of %d seeds: the build's analysis is the full analysis's", checked, k)
}

// TestStoredBestFile saves and loads a table with its best moves; a file
// of format 1 still loads, says it lacks them and still answers Best; a
// stored mask naming an action beyond the row is refused.
func TestStoredBestFile(t *testing.T) {
	tb, _, err := Build(context.Background(), env.Urim, 4, Options{Workers: 2, StoreMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "urim4.tb")
	if err := tb.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFor(path, env.Urim)
	if err != nil {
		t.Fatal(err)
	}
	if !back.HasStoredMoves() || !bytes.Equal(back.analysis, tb.analysis) || !bytes.Equal(back.data, tb.data) {
		t.Fatal("the loaded table's stored best moves differ from the saved ones")
	}
	g := env.MustGame(env.Urim)
	s, err := g.ParsePosition("1,0,1,0,0,0/0,1,0,0,1,0 16-16 S 0")
	if err != nil {
		t.Fatal(err)
	}

	// Format 1: the same table without its best moves.
	plain, _, err := Build(context.Background(), env.Urim, 4, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	v2, err := plain.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	hl := int(binary.LittleEndian.Uint32(v2[12:16]))
	h := bytes.Replace(v2[16:16+hl], []byte(`,"move_bytes":0`), nil, 1)
	v1 := binary.LittleEndian.AppendUint32(append(bytes.Clone(v2[:8]), 1, 0, 0, 0), uint32(len(h)))
	v1 = append(append(v1, h...), v2[16+hl:len(v2)-4]...)
	v1 = binary.LittleEndian.AppendUint32(v1, crc32.Checksum(v1, castagnoli))
	old, err := Parse(v1)
	if err != nil {
		t.Fatalf("a format 1 file: %v", err)
	}
	if old.HasStoredMoves() {
		t.Fatal("a format 1 file claims stored best moves")
	}
	if _, err := old.BestSet(&s); !errors.Is(err, ErrNoStoredMoves) {
		t.Fatalf("BestSet on a format 1 table = %v, want ErrNoStoredMoves", err)
	}
	a, err := old.Best(&s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := back.Best(&s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("Best from format 1 %+v, from the stored moves %+v", a, b)
	}

	// A mask beyond the row, with a good checksum.
	good, err := tb.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Clone(good)
	bad[len(bad)-5] = 0x80
	binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
	if _, err := Parse(bad); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a mask beyond the row: %v, want ErrCorrupt", err)
	}
	// move_bytes in a format 1 header.
	hl = int(binary.LittleEndian.Uint32(good[12:16]))
	h = good[16 : 16+hl]
	b1 := append(bytes.Clone(good[:8]), 1, 0, 0, 0)
	b1 = append(binary.LittleEndian.AppendUint32(b1, uint32(len(h))), h...)
	b1 = append(b1, good[16+hl:len(good)-4]...)
	b1 = binary.LittleEndian.AppendUint32(b1, crc32.Checksum(b1, castagnoli))
	if _, err := Parse(b1); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("move_bytes in format 1: %v, want ErrCorrupt", err)
	}
}

// TestReportStoredBest checks that the probe's report gives the stored
// best moves of a table that has them, and none otherwise.
func TestReportStoredBest(t *testing.T) {
	pos := "0,0,0,0,0,1/0,0,1,0,1,0 17-16 N 0"
	for _, store := range []bool{false, true} {
		tb, _, err := Build(context.Background(), env.Urim, 3, Options{StoreMoves: store})
		if err != nil {
			t.Fatal(err)
		}
		r, err := tb.ProbePosition(pos)
		if err != nil {
			t.Fatal(err)
		}
		if !store {
			if r.StoredBest != nil {
				t.Fatalf("a table without stored best moves reports %v", r.StoredBest)
			}
			continue
		}
		best := slices.Sorted(slices.Values(r.Best))
		if !reflect.DeepEqual(r.StoredBest, best) {
			t.Fatalf("stored best %v, Best %v (a fresh history)", r.StoredBest, r.Best)
		}
	}
}
