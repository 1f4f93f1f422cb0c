package dataset

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"reflect"

	"github.com/urim-rl/urim/env"
)

// Errors Verify wraps, one per kind of damage, so callers and tests can tell
// them apart with errors.Is.
var (
	// ErrMissing: a file the manifest lists is not there.
	ErrMissing = errors.New("dataset: missing file")
	// ErrChecksum: a file's size or SHA-256 differs from the manifest's.
	ErrChecksum = errors.New("dataset: checksum mismatch")
	// ErrSchema: a file does not have the layout the schema demands.
	ErrSchema = errors.New("dataset: schema violation")
	// ErrReplay: replaying a game through the rules engine does not give
	// what the dataset stores.
	ErrReplay = errors.New("dataset: replay mismatch")
)

// Mismatch is the first difference Verify found between a stored game and
// its replay. It wraps ErrReplay.
type Mismatch struct {
	File   string // the shard file holding the value (.npz or .jsonl.gz)
	Game   int64  // the game id
	Ply    int    // the ply of the position (-1: the game as a whole)
	Field  string // the array or record field
	Detail string // stored against replayed
}

func (m *Mismatch) Error() string {
	at := ""
	if m.Ply >= 0 {
		at = fmt.Sprintf(", ply %d", m.Ply)
	}
	return fmt.Sprintf("%v: %s: game %d%s: %s: %s", ErrReplay, m.File, m.Game, at, m.Field, m.Detail)
}

// Unwrap returns ErrReplay.
func (m *Mismatch) Unwrap() error { return ErrReplay }

// VerifyReport counts what Verify checked.
type VerifyReport struct {
	Shards, Games, Positions int
	Bytes                    int64
	// Complete is the manifest's flag: false for a run still under way or
	// interrupted (what it lists is checked all the same).
	Complete bool
}

// Verify checks the dataset in dir: the manifest's schema, every shard's
// size and SHA-256, every shard's arrays, and a replay of every game through
// the rules engine that must reproduce every stored observation, mask,
// action, ply, game id and outcome, and each game's result. It stops at the
// first problem and returns an error naming it (wrapping ErrMissing,
// ErrChecksum, ErrSchema or ErrReplay); progress, when not nil, is called
// after each shard.
func Verify(ctx context.Context, dir string, progress func(done, total int)) (VerifyReport, error) {
	var rep VerifyReport
	d, err := Open(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return rep, fmt.Errorf("%w: %v", ErrMissing, err)
		}
		return rep, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	m := d.Manifest
	rep.Complete = m.Complete
	ids := map[int64]string{}
	for i, info := range m.Shards {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		for _, f := range []struct {
			name, sum string
			size      int64
		}{{info.Tensors, info.TensorsSHA256, info.TensorsBytes}, {info.Games, info.GamesSHA256, info.GamesBytes}} {
			data, err := d.readShardFile(f.name, f.size, "a shard file")
			if errors.Is(err, fs.ErrNotExist) {
				return rep, fmt.Errorf("%w: %s (shard %d in the manifest) is not in %s", ErrMissing, f.name, i, dir)
			}
			if err != nil {
				return rep, err
			}
			if int64(len(data)) != f.size {
				return rep, fmt.Errorf("%w: %s is %d bytes, the manifest says %d", ErrChecksum, f.name, len(data), f.size)
			}
			if got := sha256Hex(data); got != f.sum {
				return rep, fmt.Errorf("%w: %s has SHA-256 %s, the manifest says %s", ErrChecksum, f.name, got, f.sum)
			}
			rep.Bytes += int64(len(data))
		}
		sh, err := d.LoadShard(i)
		if err != nil {
			return rep, fmt.Errorf("%w: %v", ErrSchema, err)
		}
		for _, r := range sh.Records {
			if prev, dup := ids[r.ID]; dup {
				return rep, fmt.Errorf("%w: game %d is in %s and again in %s", ErrSchema, r.ID, prev, info.Games)
			}
			ids[r.ID] = info.Games
		}
		if err := d.replayShard(sh); err != nil {
			return rep, err
		}
		rep.Shards++
		rep.Games += len(sh.Records)
		rep.Positions += sh.Tensors.N
		if progress != nil {
			progress(i+1, len(m.Shards))
		}
	}
	return rep, nil
}

// replayShard replays every game of sh and compares it with the stored rows.
func (d *Dataset) replayShard(sh *Shard) error {
	enc := env.NewEncoder(d.game, d.enc)
	obs := make([]float32, enc.Dim())
	starts := sh.GameRows()
	for j := range sh.Records {
		if err := d.replayGame(sh, &sh.Records[j], starts[j], enc, obs); err != nil {
			return err
		}
	}
	return nil
}

func (d *Dataset) replayGame(sh *Shard, r *Record, row0 int, enc *env.Encoder, obs []float32) error {
	t := sh.Tensors
	inRecord := func(ply int, field, format string, args ...any) error {
		return &Mismatch{File: sh.Info.Games, Game: r.ID, Ply: ply, Field: field, Detail: fmt.Sprintf(format, args...)}
	}
	inTensors := func(ply int, field, format string, args ...any) error {
		return &Mismatch{File: sh.Info.Tensors, Game: r.ID, Ply: ply, Field: field, Detail: fmt.Sprintf(format, args...)}
	}
	if !reflect.DeepEqual(r.Rules, d.Manifest.Rules) {
		return inRecord(-1, "rules", "%s, the manifest's are %s", r.Rules.Name, d.Manifest.Rules.Name)
	}
	if len(r.Opening) > len(r.Moves) || !reflect.DeepEqual(r.Opening, r.Moves[:len(r.Opening)]) {
		return inRecord(-1, "opening", "%v is not the start of the moves", r.Opening)
	}
	if r.Plies != len(r.Moves) {
		return inRecord(-1, "plies", "stored %d, the record has %d moves", r.Plies, len(r.Moves))
	}
	a := d.Manifest.Actions
	// Replay the moves, comparing each stored row with its position as it
	// comes; the outcomes wait for the end of the game.
	var movers []int
	s := d.game.Start()
	row, end := row0, row0+r.Positions
	for ply, mv := range r.Moves {
		if s.Terminal() {
			return inRecord(ply, "moves", "the game ended (%s) before move %d", s.Reason(), ply+1)
		}
		if row < end && int(t.Ply[row]) < ply {
			return inTensors(int(t.Ply[row]), ArrPly, "row %d: the plies of a game's rows must increase", row)
		}
		if row < end && int(t.Ply[row]) == ply {
			if ply < len(r.Opening) {
				return inTensors(ply, ArrPly, "row %d is in the opening (%d plies), which has no rows", row, len(r.Opening))
			}
			if err := compareRow(t, row, &s, mv, r.ID, enc, obs, a, func(field, format string, args ...any) error {
				return inTensors(ply, field, format, args...)
			}); err != nil {
				return err
			}
			movers = append(movers, s.ToMove())
			row++
		}
		if err := s.Check(mv); err != nil {
			return inRecord(ply, "moves", "move %d (action %d) cannot be played: %v", ply+1, mv, err)
		}
		s.Play(mv)
	}
	if row < end {
		return inTensors(int(t.Ply[row]), ArrPly, "row %d: ply %d is not a move of the game (%d plies)", row, t.Ply[row], r.Plies)
	}
	if r.Reason == Resigned {
		return checkResigned(t, r, &s, movers, row0, inRecord, inTensors)
	}
	if !s.Terminal() {
		return inRecord(len(r.Moves), "moves", "the moves stop before the game ends")
	}
	switch {
	case s.FinalStores() != r.Stores:
		return inRecord(-1, "stores", "stored %v, replayed %v", r.Stores, s.FinalStores())
	case s.Winner() != r.Winner:
		return inRecord(-1, "winner", "stored %d, replayed %d", r.Winner, s.Winner())
	case s.MatchPoints() != r.MatchPoints:
		return inRecord(-1, "match_points", "stored %v, replayed %v", r.MatchPoints, s.MatchPoints())
	case s.Reason().String() != r.Reason:
		return inRecord(-1, "reason", "stored %s, replayed %s", r.Reason, s.Reason())
	}
	rewards := s.Rewards(d.reward)
	for j, mover := range movers {
		i := row0 + j
		if want := rewards[mover]; math.Float32bits(t.Outcome[i]) != math.Float32bits(want) {
			return inTensors(int(t.Ply[i]), ArrOutcome, "row %d: stored %g, replayed %g", i, t.Outcome[i], want)
		}
	}
	return nil
}

// checkResigned checks the end of a resigned game, replayed to s: it
// stopped before the game ended, with the stores of s, a winner, no match
// points and outcomes of ±1.
func checkResigned(t *Tensors, r *Record, s *env.State, movers []int, row0 int,
	inRecord, inTensors func(ply int, field, format string, args ...any) error) error {
	switch stores := [2]int{s.Store(0), s.Store(1)}; {
	case s.Terminal():
		return inRecord(len(r.Moves), "reason", "%s, but the game ended (%s)", Resigned, s.Reason())
	case stores != r.Stores:
		return inRecord(-1, "stores", "stored %v, replayed %v", r.Stores, stores)
	case r.Winner != 0 && r.Winner != 1:
		return inRecord(-1, "winner", "%d: a resigned game has a winner (0 or 1)", r.Winner)
	case r.MatchPoints != [2]int{}:
		return inRecord(-1, "match_points", "%v: a resigned game scores none", r.MatchPoints)
	}
	for j, mover := range movers {
		i := row0 + j
		if want := resignedOutcome(mover, r.Winner); math.Float32bits(t.Outcome[i]) != math.Float32bits(want) {
			return inTensors(int(t.Ply[i]), ArrOutcome, "row %d: stored %g, want %g (resigned)", i, t.Outcome[i], want)
		}
	}
	return nil
}

// compareRow checks tensor row i against the replayed position s before move
// mv.
func compareRow(t *Tensors, i int, s *env.State, mv int, id int64, enc *env.Encoder, obs []float32, a int, bad func(field, format string, args ...any) error) error {
	if t.GameID[i] != id {
		return bad(ArrGameID, "row %d: stored %d", i, t.GameID[i])
	}
	enc.Encode(obs, s)
	stored := t.Obs[i*t.Dim : (i+1)*t.Dim]
	for c := range obs {
		if math.Float32bits(obs[c]) != math.Float32bits(stored[c]) {
			return bad(ArrObs, "row %d, column %d: stored %g, replayed %g", i, c, stored[c], obs[c])
		}
	}
	legal := s.Legal()
	for k := 0; k < a; k++ {
		if t.Mask[i*a+k] != legal.Has(k) {
			return bad(ArrMask, "row %d, action %d: stored %v, replayed %v", i, k, t.Mask[i*a+k], legal.Has(k))
		}
	}
	if int(t.Action[i]) != mv {
		return bad(ArrAction, "row %d: stored %d, the record's move is %d", i, t.Action[i], mv)
	}
	pol := t.Policy[i*a : (i+1)*a]
	if !t.HasPolicy[i] {
		for k, p := range pol {
			if p != 0 {
				return bad(ArrPolicy, "row %d, action %d: %g without has_policy", i, k, p)
			}
		}
		if t.Value[i] != 0 {
			return bad(ArrValue, "row %d: %g without has_policy", i, t.Value[i])
		}
		return nil
	}
	var sum float64
	for k, p := range pol {
		if !(p >= 0 && p <= 1) || (p > 0 && !legal.Has(k)) {
			return bad(ArrPolicy, "row %d, action %d: %g (legal: %v)", i, k, p, legal.Has(k))
		}
		sum += float64(p)
	}
	if math.Abs(sum-1) > 1e-4 {
		return bad(ArrPolicy, "row %d: sums to %g, not 1", i, sum)
	}
	if v := t.Value[i]; !(v >= -1 && v <= 1) {
		return bad(ArrValue, "row %d: %g is outside [-1, 1]", i, v)
	}
	return nil
}
