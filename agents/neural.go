package agents

import (
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

func init() {
	Register("neural",
		"the policy head of a network alone: ckpt=PATH (required; urim nn new writes one), "+
			"temp=0 (0: the most likely move; above 0: sampled from softmax(logits/temp)), seed (overrides the agent's seed)",
		func(p *Params, seed uint64) (Agent, error) {
			path := p.ckpt()
			temp := p.Float("temp", 0, 0, 100)
			seed = p.seed(seed)
			if err := p.Done(); err != nil { // before reading the checkpoint
				return nil, err
			}
			net, err := loadAgentNet(path)
			if err != nil {
				return nil, err
			}
			return NewNeural(net, path, temp, seed), nil
		})
}

// ckpt reads the required ckpt parameter.
func (p *Params) ckpt() string {
	path := p.String("ckpt", "")
	if path == "" {
		p.fail("ckpt", path, "the path of a network checkpoint (urim nn new --out writes one)")
	} else if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		// Checked here, before Done, so that Validate catches it too.
		why := "is a directory"
		if err != nil {
			why = err.Error()
		}
		p.fail("ckpt", path, "a network checkpoint file ("+why+")")
	} else if p.game != nil {
		// ValidateFor: the network must be for the game to be played.
		if net, err := loadAgentNet(path); err != nil {
			p.fail("ckpt", path, "a readable network checkpoint ("+err.Error()+")")
		} else if r := net.Rules(); !r.SamePlay(p.game.Rules()) {
			p.fail("ckpt", path, fmt.Sprintf("a network for the rules played here, %s (%s); this one was trained for %s (%s)",
				p.game.Name(), p.game.Rules(), r.Name, r))
		}
	}
	return path
}

// seed reads the optional seed parameter, which replaces the agent's seed.
func (p *Params) seed(def uint64) uint64 {
	v := p.String("seed", "")
	if v == "" {
		return def
	}
	s, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		p.fail("seed", v, "an integer from 0 to 2^64-1")
		return def
	}
	return s
}

// netCache keeps the networks loaded by agent specs, so that a tournament
// building an agent per game reads each checkpoint once. A network is read
// only (each agent makes its own predictors), so agents share it. An entry
// is used only while the file keeps its size and modification time; the
// cache holds the last few files.
var netCache struct {
	sync.Mutex
	entries []netEntry
}

type netEntry struct {
	path  string
	size  int64
	mtime time.Time
	net   *nn.Net
}

// netCacheSize is the number of checkpoints netCache keeps.
const netCacheSize = 8

// loadAgentNet reads the network of a checkpoint for an agent, or takes it
// from netCache.
func loadAgentNet(path string) (*nn.Net, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("agents: loading the network: %w", err)
	}
	netCache.Lock()
	defer netCache.Unlock()
	for _, e := range netCache.entries {
		if e.path == path && e.size == fi.Size() && e.mtime.Equal(fi.ModTime()) {
			return e.net, nil
		}
	}
	net, err := nn.LoadNet(path)
	if err != nil {
		return nil, fmt.Errorf("agents: loading the network: %w", err)
	}
	e := netEntry{path: path, size: fi.Size(), mtime: fi.ModTime(), net: net}
	netCache.entries = append([]netEntry{e}, netCache.entries[:min(len(netCache.entries), netCacheSize-1)]...)
	return net, nil
}

// netGame returns the game a network was made for.
func netGame(net *nn.Net) *env.Game {
	g, err := env.NewGame(net.Rules())
	if err != nil { // nn validated the rules when it made or loaded the network
		panic(fmt.Sprintf("agents: a network for invalid rules: %v", err))
	}
	return g
}

// NewNetEvaluator returns the evaluator of net for batches of up to
// maxBatch positions, with a predictor of its own.
func NewNetEvaluator(net *nn.Net, maxBatch int) *NetEvaluator {
	maxBatch = max(maxBatch, 1)
	return newNetEvaluator(net.NewPredictor(maxBatch), netGame(net), net.Encoding(), net.Actions(), maxBatch)
}

// Neural plays the policy head of a network alone: one forward pass per
// move, the logits masked to the legal actions, then the most likely move
// (temperature 0) or a draw from softmax(logits/temperature). LastSearch
// reports the value head's estimate for the player to move and the move
// as the principal variation.
//
// A Neural agent plays only the rules its network was made for; asked about
// a position of another game, Act returns an error that names both.
type Neural struct {
	eval  *NetEvaluator
	games gameCheck
	temp  float32
	rng   xorshift
	prior [env.MaxActions]float32
	info  SearchInfo
	desc  string
}

// NewNeural returns the policy agent of net (read from the checkpoint
// ckpt, named in messages) at temperature temp, seeded with seed.
func NewNeural(net *nn.Net, ckpt string, temp float64, seed uint64) *Neural {
	n := &Neural{
		eval:  NewNetEvaluator(net, 1),
		games: gameCheck{net: netGame(net), what: "checkpoint " + ckpt},
		temp:  float32(temp),
		rng:   newXorshift(seed),
		desc:  fmt.Sprintf("neural:ckpt=%s,temp=%g", ckpt, temp),
	}
	n.info.PV = make([]int, 1)
	return n
}

// Act runs the network on s and picks a move.
func (n *Neural) Act(s *env.State) (int, error) {
	if s.Terminal() {
		return 0, errNoMove(s)
	}
	if err := n.games.check(s); err != nil {
		return 0, err
	}
	e := n.eval
	e.n = 0
	e.Queue(s)
	e.Flush()
	logits := e.logits[:e.actions]
	legal := s.Legal()
	best := legal.Nth(0)
	for m := legal; m != 0; m &= m - 1 {
		if a := m.Nth(0); logits[a] > logits[best] {
			best = a
		}
	}
	if n.temp > 0 {
		p := n.prior[:e.actions]
		nn.MaskedSoftmax(p, logits, legal, n.temp)
		x := float32(n.rng.next()>>40) / (1 << 24)
		for m := legal; m != 0; m &= m - 1 {
			a := m.Nth(0)
			if x < p[a] {
				best = a
				break
			}
			x -= p[a]
		}
	}
	n.info.Value = float64(e.values[0])
	n.info.PV[0] = best
	n.info.Nodes = 1
	return best, nil
}

// LastSearch reports the last move and the network's value of the position.
func (n *Neural) LastSearch() SearchInfo {
	info := n.info
	info.PV = append([]int(nil), n.info.PV...)
	return info
}

// String describes the agent.
func (n *Neural) String() string { return n.desc }
