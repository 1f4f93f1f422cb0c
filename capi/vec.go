package capi

import (
	"encoding/binary"
	"unsafe"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/splitmix"
)

// VecConfig describes a [VecEnv]: the names are those of the configs and
// of Python's urim.VecEnv.
type VecConfig struct {
	Rules        string // a preset or a rules YAML file; "" means urim
	N            int
	Encoding     string // compact (the default) or thermometer
	AutoReset    string // next_step (the default), same_step or disabled
	Reward       string // match_points (the default), win_loss or seed_margin
	Illegal      string // error (the default), loss, or random (a random legal move instead)
	Seed         uint64
	OpeningPlies int
	Workers      int // 0: env.Vec's default, one per core but no more than one per 64 games
}

// Buffers are the caller's arrays that a [VecEnv] writes after every step
// and reset: N rows each, row-major. FinalObs and HasFinal are used under
// same_step only and may be nil otherwise. Actions is read by Step.
type Buffers struct {
	Obs        []float32 // N × ObsDim
	Mask       []bool    // N × Actions, true where legal
	Rewards    []float32 // N: the reward of the player who moved
	Rewards2   []float32 // N × 2: players 0 and 1, as env.Vec.Rewards
	Terminated []bool    // N
	Truncated  []bool    // N
	ToMove     []int32   // N: player to move, whose view the obs row takes
	FinalObs   []float32 // N × ObsDim, same_step only
	HasFinal   []bool    // N, same_step only
	Legal      []uint8   // N: the legal actions as a bit set (bit a: action a), 0 once over
	Actions    []int32   // N, read by Step
}

// VecEnv is an env.Vec that writes into the caller's buffers: every
// tensor straight into them (env.Vec.Bind, for the duration of each call;
// the Vec's float32 mask, which the caller does not take, is not written),
// so that nothing is copied after a step. The stepping, encoding, rewards
// and resets are the Vec's own. The caller hands the same buffers to every
// call, or says which set the previous call wrote (StepInto). It is not
// safe for concurrent use.
type VecEnv struct {
	cfg VecConfig
	g   *env.Game
	opt env.VecOptions
	v   *env.Vec
	// fallback is the illegal policy "random": an illegal action is
	// replaced by a legal one drawn from rng (SplitMix64 steps), so that
	// a baseline sampling unmasked actions still plays games.
	fallback bool
	rng      uint64
	draw     uint64 // the stream of RandomActions
}

// NewVecEnv builds the environment cfg describes.
func NewVecEnv(cfg VecConfig) (*VecEnv, error) {
	if cfg.Rules == "" {
		cfg.Rules = "urim"
	}
	r, err := env.FindRules(cfg.Rules)
	if err != nil {
		return nil, err
	}
	g, err := env.NewGame(r)
	if err != nil {
		return nil, err
	}
	opt := env.VecOptions{Workers: cfg.Workers, Seed: cfg.Seed, OpeningPlies: cfg.OpeningPlies}
	if opt.Encoding, err = env.ParseEncoding(orDefault(cfg.Encoding, "compact")); err != nil {
		return nil, err
	}
	if opt.AutoReset, err = env.ParseAutoReset(orDefault(cfg.AutoReset, "next_step")); err != nil {
		return nil, err
	}
	if opt.Reward, err = env.ParseRewardKind(orDefault(cfg.Reward, "match_points")); err != nil {
		return nil, err
	}
	fallback := cfg.Illegal == "random"
	if fallback {
		opt.Illegal = env.IllegalError // never reached: every action is made legal first
	} else if opt.Illegal, err = env.ParseIllegalPolicy(orDefault(cfg.Illegal, "error")); err != nil {
		return nil, Errorf(ErrArg, "%v (or random: a random legal move instead)", err)
	}
	v, err := env.NewVec(g, cfg.N, opt)
	if err != nil {
		return nil, err
	}
	return &VecEnv{cfg: cfg, g: g, opt: v.Options(), v: v,
		fallback: fallback, rng: splitmix.Mix(cfg.Seed ^ 0x696c6c6567616c), draw: drawSeed(cfg.Seed)}, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Len returns N.
func (e *VecEnv) Len() int { return e.cfg.N }

// ObsDim returns the observation columns.
func (e *VecEnv) ObsDim() int { return e.v.ObsDim() }

// Actions returns P, the mask's columns.
func (e *VecEnv) Actions() int { return e.v.Actions() }

// Game returns the game played.
func (e *VecEnv) Game() *env.Game { return e.g }

// Options returns the Vec's options, defaults filled in.
func (e *VecEnv) Options() env.VecOptions { return e.v.Options() }

// Vec returns the underlying env.Vec.
func (e *VecEnv) Vec() *env.Vec { return e.v }

// check reports buffers of the wrong sizes (the C glue builds them from the
// sizes VecEnv asks for, so this catches a bug, not the caller).
func (e *VecEnv) check(b *Buffers, actions bool) error {
	n, d, p := e.cfg.N, e.ObsDim(), e.Actions()
	bad := len(b.Obs) != n*d || len(b.Mask) != n*p || len(b.Rewards) != n || len(b.Rewards2) != 2*n ||
		len(b.Terminated) != n || len(b.Truncated) != n || len(b.ToMove) != n || len(b.Legal) != n
	if e.opt.AutoReset == env.AutoResetSameStep {
		bad = bad || len(b.FinalObs) != n*d || len(b.HasFinal) != n
	}
	if actions {
		bad = bad || len(b.Actions) != n
	}
	if bad {
		return Errorf(ErrArg, "capi: buffers of the wrong sizes for %d games of %d observation columns and %d actions", n, d, p)
	}
	return nil
}

// Step plays b.Actions and writes the tensors into b, the buffers of the
// previous calls (only what changes is written). Under the illegal policy
// "error" an illegal or out-of-range action is an error naming the game,
// and no game moves.
func (e *VecEnv) Step(b *Buffers) error { return e.StepInto(b, b) }

// StepInto is Step writing the tensors into out, a set of buffers that need
// not hold anything (a caller handing out new arrays every step, so that
// what it returned before stays as it was, writes each step into another
// set): every entry of out is written, and what the step does not rewrite
// (the observations of finished games under autoreset disabled, the final
// observations of the games that did not end under same_step) is copied
// from prev, the set the previous call wrote. Actions are read from
// out.Actions. With out == prev it is Step.
func (e *VecEnv) StepInto(out, prev *Buffers) error {
	if e.v == nil {
		return ErrClosedObject
	}
	fresh, err := e.checkPair(out, prev, true)
	if err != nil {
		return err
	}
	if e.fallback {
		e.legalize(out.Actions)
	}
	if fresh {
		e.carry(out, prev, false)
	}
	if err := e.bind(out); err != nil {
		return err
	}
	defer e.v.Bind(nil)
	if err := e.v.Step(out.Actions); err != nil {
		return err
	}
	e.v.ClearEpisodes()
	return nil
}

// checkPair checks out and, when it is another set, prev, and reports
// whether it is (a fresh set, which every entry is written into).
func (e *VecEnv) checkPair(out, prev *Buffers, actions bool) (bool, error) {
	if err := e.check(out, actions); err != nil {
		return false, err
	}
	if prev == nil || prev == out || unsafe.SliceData(prev.Obs) == unsafe.SliceData(out.Obs) {
		return false, nil
	}
	return true, e.check(prev, false)
}

// carry copies from prev into out, a fresh set, what the coming call does
// not write: under same_step the final observations (the call writes those
// of the games that end), under disabled the rows of the finished games but
// their rewards (a step leaves them), and with all every row (ResetMask
// rewrites only the games it restarts).
func (e *VecEnv) carry(out, prev *Buffers, all bool) {
	if e.opt.AutoReset == env.AutoResetSameStep {
		copy(out.FinalObs, prev.FinalObs)
	}
	if all {
		copy(out.Obs, prev.Obs)
		copy(out.Mask, prev.Mask)
		copy(out.Rewards, prev.Rewards)
		copy(out.Rewards2, prev.Rewards2)
		copy(out.Terminated, prev.Terminated)
		copy(out.Truncated, prev.Truncated)
		copy(out.ToMove, prev.ToMove)
		copy(out.HasFinal, prev.HasFinal)
		copy(out.Legal, prev.Legal)
		return
	}
	if e.opt.AutoReset == env.AutoResetDisabled {
		d, p := e.ObsDim(), e.Actions()
		for i := range e.cfg.N {
			if e.v.Done(i) {
				copy(out.Obs[i*d:(i+1)*d], prev.Obs[i*d:(i+1)*d])
				copy(out.Mask[i*p:(i+1)*p], prev.Mask[i*p:(i+1)*p])
				out.Terminated[i], out.Truncated[i] = prev.Terminated[i], prev.Truncated[i]
				out.ToMove[i], out.Legal[i] = prev.ToMove[i], prev.Legal[i]
			}
		}
	}
}

// legalize replaces, in place, every illegal action of a game that waits
// for one by a legal action drawn uniformly.
func (e *VecEnv) legalize(actions []int32) {
	for i, m := range e.v.Legal()[:len(actions)] {
		a := actions[i]
		if m == 0 || (uint32(a) < env.MaxActions && m.Has(int(a))) {
			continue
		}
		e.rng = splitmix.Mix(e.rng)
		actions[i] = int32(m.Nth(int(e.rng % uint64(m.Count()))))
	}
}

// bind points the Vec's writes at the caller's buffers for one call
// (env.Vec.Bind), the float32 mask off: the library keeps no caller memory
// between calls.
func (e *VecEnv) bind(b *Buffers) error {
	o := env.VecOutputs{Obs: b.Obs, Rewards: b.Rewards2, Terminated: b.Terminated, Truncated: b.Truncated,
		ToMove: b.ToMove, MoverRewards: b.Rewards, BoolMask: b.Mask, NoMask: true,
		Legal: unsafe.Slice((*env.Mask)(unsafe.SliceData(b.Legal)), len(b.Legal))}
	if e.opt.AutoReset == env.AutoResetSameStep {
		o.FinalObs, o.HasFinalObs = b.FinalObs, b.HasFinal
	}
	return e.v.Bind(&o)
}

// Reset starts every game again. A seed rebuilds the Vec with it, so that
// reset(seed=s) always starts the same games (Gymnasium's convention); nil
// goes on with the current stream of openings.
func (e *VecEnv) Reset(b *Buffers, seed *uint64) error { return e.ResetInto(b, b, seed) }

// ResetInto is Reset writing into out, a set that need not hold anything,
// with prev the set of the previous call (as StepInto).
func (e *VecEnv) ResetInto(b, prev *Buffers, seed *uint64) error {
	if e.v == nil {
		return ErrClosedObject
	}
	fresh, err := e.checkPair(b, prev, false)
	if err != nil {
		return err
	}
	if fresh {
		e.carry(b, prev, false)
	}
	if seed != nil {
		opt := e.opt
		opt.Seed = *seed
		v, err := env.NewVec(e.g, e.cfg.N, opt)
		if err != nil {
			return err
		}
		_ = e.v.Close()
		e.v, e.opt = v, v.Options()
		e.draw = drawSeed(*seed)
		// The new Vec's first tensors are in its own buffers.
		e.write(b)
		return nil
	}
	if err := e.bind(b); err != nil {
		return err
	}
	e.v.Reset()
	e.v.Bind(nil)
	e.v.ClearEpisodes()
	return nil
}

// ResetMask starts again the games i with sel[i] set (how games restart
// under autoreset "disabled"), and writes the tensors into b.
func (e *VecEnv) ResetMask(b *Buffers, sel []bool) error { return e.ResetMaskInto(b, b, sel) }

// ResetMaskInto is ResetMask writing into out, a set that need not hold
// anything, with prev the set of the previous call (as StepInto).
func (e *VecEnv) ResetMaskInto(b, prev *Buffers, sel []bool) error {
	if e.v == nil {
		return ErrClosedObject
	}
	fresh, err := e.checkPair(b, prev, false)
	if err != nil {
		return err
	}
	if len(sel) != e.cfg.N {
		return Errorf(ErrArg, "capi: reset mask of %d entries for %d games", len(sel), e.cfg.N)
	}
	if fresh {
		e.carry(b, prev, true)
	}
	if err := e.bind(b); err != nil {
		return err
	}
	defer e.v.Bind(nil)
	if err := e.v.ResetMask(sel); err != nil {
		return err
	}
	e.v.ClearEpisodes()
	return nil
}

// maskRows holds the bool row of every legal set as 8 bytes, for one
// unaligned store per row.
var maskRows = func() (t [1 << env.MaxActions]uint64) {
	for m := range t {
		for a := range env.MaxActions {
			t[m] |= uint64(m>>a&1) << (8 * a)
		}
	}
	return t
}()

// write copies the tensors of a Vec just built (its own buffers, nothing
// bound: a reset with a seed) into b. Every reward is 0 after a reset.
func (e *VecEnv) write(b *Buffers) {
	v := e.v
	copy(b.Obs, v.Obs())
	clear(b.Rewards)
	clear(b.Rewards2)
	writeMask(b.Mask, b.Legal, v.Legal(), e.Actions())
	copy(b.Terminated, v.Terminated())
	copy(b.Truncated, v.Truncated())
	copy(b.ToMove, v.ToMove())
	if e.opt.AutoReset == env.AutoResetSameStep {
		copy(b.FinalObs, v.FinalObs())
		copy(b.HasFinal, v.HasFinalObs())
	}
	v.ClearEpisodes()
}

// writeMask writes the rows of p bools and the bit sets of legal. With 6
// actions (urim's board) four rows are three 8-byte stores; with another p
// a row is one 8-byte store whose spill into the next row is overwritten
// by that row's store (p ≤ 7 < 8), and the rows too close to the end go
// byte by byte.
func writeMask(mask []bool, bits []uint8, legal []env.Mask, p int) {
	n := len(legal)
	copy(bits, unsafe.Slice((*uint8)(unsafe.Pointer(unsafe.SliceData(legal))), n))
	mb := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(mask))), len(mask))
	const all = 1<<env.MaxActions - 1
	i := 0
	if p == 6 {
		for ; i+4 <= n; i += 4 {
			l := legal[i : i+4 : i+4]
			r0, r1, r2, r3 := maskRows[l[0]&all], maskRows[l[1]&all], maskRows[l[2]&all], maskRows[l[3]&all]
			o := mb[6*i : 6*i+24 : 6*i+24]
			binary.LittleEndian.PutUint64(o[0:], r0|r1<<48)
			binary.LittleEndian.PutUint64(o[8:], r1>>16|r2<<32)
			binary.LittleEndian.PutUint64(o[16:], r2>>32|r3<<16)
		}
	} else {
		for ; i*p+8 <= len(mb); i++ {
			binary.LittleEndian.PutUint64(mb[i*p:], maskRows[legal[i]&all])
		}
	}
	for ; i < n; i++ {
		row, m := mb[i*p:(i+1)*p], maskRows[legal[i]&all]
		for a := range row {
			row[a] = byte(m >> (8 * a))
		}
	}
}

// Close stops the Vec's workers; later calls fail with ErrClosed.
func (e *VecEnv) Close() error {
	if e.v == nil {
		return nil
	}
	err := e.v.Close()
	e.v = nil
	return err
}

// Describe returns the settings in effect, for Python's metadata.
func (e *VecEnv) Describe() map[string]any {
	o := e.opt
	return map[string]any{
		"rules": e.g.Name(), "num_envs": e.cfg.N, "obs_dim": e.ObsDim(), "actions": e.Actions(),
		"encoding": o.Encoding.String(), "autoreset_mode": o.AutoReset.String(), "reward": o.Reward.String(),
		"illegal": e.illegalName(), "seed": o.Seed, "opening_plies": o.OpeningPlies,
		"workers": o.Workers, "columns": o.Encoding.Columns(e.g), "max_plies": e.g.Rules().MaxPlies,
	}
}

func (e *VecEnv) illegalName() string {
	if e.fallback {
		return "random"
	}
	return e.opt.Illegal.String()
}
