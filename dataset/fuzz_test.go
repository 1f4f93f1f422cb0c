package dataset

import (
	"bytes"
	"reflect"
	"testing"

	"codeberg.org/sbinet/npyio/npz"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/numpy"
)

// seedShard returns the bytes of a small valid shard and its records file.
func seedShard(t testing.TB) (npzData, recData []byte) {
	g := env.MustGame(env.Urim)
	rec := NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
	gm := playRandom(t, rec, g, 1)
	tn := Tensors{Dim: 17, Actions: 6}
	tn.appendGame(&gm)
	var a, b bytes.Buffer
	if err := tn.WriteNPZ(&a); err != nil {
		t.Fatal(err)
	}
	if err := WriteRecords(&b, []Record{gm.Record}); err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), b.Bytes()
}

// FuzzReadNPZ feeds arbitrary bytes to the shard reader: it must return an
// error or tensors of consistent sizes, never panic or allocate without
// bound.
func FuzzReadNPZ(f *testing.F) {
	npzData, _ := seedShard(f)
	f.Add(npzData)
	f.Add(npzData[:len(npzData)/2])
	f.Add([]byte("PK\x03\x04"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tn, err := ReadNPZ(data, 17, 6)
		if err != nil {
			return
		}
		n := tn.N
		if len(tn.Obs) != n*17 || len(tn.Mask) != n*6 || len(tn.Policy) != n*6 || len(tn.HasPolicy) != n ||
			len(tn.Value) != n || len(tn.Outcome) != n || len(tn.Action) != n || len(tn.Ply) != n || len(tn.GameID) != n {
			t.Fatalf("inconsistent sizes for %d rows", n)
		}
	})
}

// FuzzReadRecords feeds arbitrary bytes to the records reader.
func FuzzReadRecords(f *testing.F) {
	_, recData := seedShard(f)
	f.Add(recData)
	f.Add(recData[:len(recData)-3])
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadRecords(data)
	})
}

// FuzzParseManifest feeds arbitrary bytes to the manifest parser.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(`{"format":"urim-dataset","schema_version":1,"rules":{"name":"urim","pits_per_row":6,"seeds_per_pit":3,"capacity":17,"trigger":[2,3],"chain":[2,3,4],"grand_slam":"capture","end_on_majority":false,"max_plies":0},"encoding":"compact","obs_dim":17,"actions":6,"outcome":"match_points","shards":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseManifest(data)
	})
}

// TestNPZReadByNpyio checks that npyio's own .npz reader reads a shard into
// the same arrays (its dtypes and shapes, and every value).
func TestNPZReadByNpyio(t *testing.T) {
	data, _ := seedShard(t)
	want, err := ReadNPZ(data, 17, 6)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := npz.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var obs, policy []float32
	var mask []bool
	var ids []int64
	for name, dst := range map[string]any{"obs.npy": &obs, "policy.npy": &policy, "mask.npy": &mask, "game_id.npy": &ids} {
		if err := zr.Read(name, dst); err != nil {
			t.Fatalf("npyio reading %s: %v", name, err)
		}
	}
	if h := zr.Header("obs.npy"); h == nil || len(h.Descr.Shape) != 2 || h.Descr.Shape[0] != want.N || h.Descr.Shape[1] != 17 {
		t.Fatalf("npyio sees obs with header %+v, want shape (%d, 17)", h, want.N)
	}
	if !reflect.DeepEqual(obs, want.Obs) || !reflect.DeepEqual(policy, want.Policy) || !reflect.DeepEqual(mask, want.Mask) || !reflect.DeepEqual(ids, want.GameID) {
		t.Fatal("npyio reads other values than ReadNPZ")
	}
}

// TestRecorderAllocs checks that recording a move allocates nothing once a
// game has started (its arrays are sized for a typical game).
func TestRecorderAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	g := env.MustGame(env.Urim)
	rec := NewRecorder(g, env.EncodingThermometer, env.RewardMatchPoints)
	rec.Start(0, 0, [2]string{"a", "b"}, nil)
	s := g.Start()
	sr := &Search{Value: 0.5}
	sr.Policy[0] = 1
	allocs := testing.AllocsPerRun(100, func() {
		rec.Add(&s, s.Legal().Nth(0), sr)
		rec.game.Record.Moves = rec.game.Record.Moves[:0] // stay at ply 0
		rec.movers = rec.movers[:0]
		rec.game.Obs, rec.game.Mask, rec.game.Policy = rec.game.Obs[:0], rec.game.Mask[:0], rec.game.Policy[:0]
		rec.game.HasPolicy, rec.game.Value, rec.game.Action, rec.game.Ply = rec.game.HasPolicy[:0], rec.game.Value[:0], rec.game.Action[:0], rec.game.Ply[:0]
	})
	if allocs != 0 {
		t.Fatalf("Recorder.Add allocates %.1f times per move", allocs)
	}
}

// FuzzNPYHeader feeds arbitrary entries to the .npy header check in front
// of npyio: it must return an error or a header, never panic or allocate
// more than the entry.
func FuzzNPYHeader(f *testing.F) {
	var seed bytes.Buffer
	numpy.WriteNPY(&seed, numpy.Array{Name: ArrValue, Shape: []int{3}, Data: []float32{1, 2, 3}})
	f.Add(seed.Bytes())
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff{"))
	f.Add([]byte("\x93NUMPY\x01\x00\x40\x00{'shape': (1,), 'fortran_order': False, 'descr': '<f4', }      \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = readNPYHeader(bytes.NewReader(data), data)
	})
}
