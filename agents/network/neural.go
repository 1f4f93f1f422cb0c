package network

import (
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/neteval"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

func init() {
	agents.Register("neural",
		"the policy head of a network alone: ckpt=PATH (required; urim nn new writes one), "+
			"temp=0 (0: the most likely move; above 0: sampled from softmax(logits/temp)), precision=fp32 (or int8), seed (overrides the agent's seed)",
		func(p *agents.Params, seed uint64) (agents.Agent, error) {
			path := ckptParam(p)
			temp := p.Float("temp", 0, 0, 100)
			prec := precisionParam(p)
			seed = seedParam(p, seed)
			if err := p.Done(); err != nil { // before reading the checkpoint
				return nil, err
			}
			net, err := loadAgentNet(path)
			if err != nil {
				return nil, err
			}
			a := NewNeural(net.AtPrecision(prec), path, temp, seed)
			a.desc += precisionDesc(prec)
			return a, nil
		})
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
	eval  *neteval.Evaluator
	games classic.GameCheck
	temp  float32
	rng   classic.Xorshift
	prior [env.MaxActions]float32
	info  agents.SearchInfo
	desc  string
}

// NewNeural returns the policy agent of net (read from the checkpoint
// ckpt, named in messages) at temperature temp, seeded with seed.
func NewNeural(net nn.Model, ckpt string, temp float64, seed uint64) *Neural {
	n := &Neural{
		eval:  neteval.New(net, 1),
		games: classic.GameCheck{Net: neteval.Game(net), What: "checkpoint " + ckpt},
		temp:  float32(temp),
		rng:   classic.NewXorshift(seed),
		desc:  fmt.Sprintf("neural:ckpt=%s,temp=%g", ckpt, temp),
	}
	n.info.PV = make([]int, 1)
	return n
}

// Act runs the network on s and picks a move.
func (n *Neural) Act(s *env.State) (int, error) {
	if s.Terminal() {
		return 0, agents.NoMove(s)
	}
	if err := n.games.Check(s); err != nil {
		return 0, err
	}
	logits, value := n.eval.Logits(s)
	legal := s.Legal()
	best := legal.Nth(0)
	for m := legal; m != 0; m &= m - 1 {
		if a := m.Nth(0); logits[a] > logits[best] {
			best = a
		}
	}
	if n.temp > 0 {
		p := n.prior[:len(logits)]
		nn.MaskedSoftmax(p, logits, legal, n.temp)
		x := float32(n.rng.Next()>>40) / (1 << 24)
		for m := legal; m != 0; m &= m - 1 {
			a := m.Nth(0)
			if x < p[a] {
				best = a
				break
			}
			x -= p[a]
		}
	}
	n.info.Value = float64(value)
	n.info.PV[0] = best
	n.info.Nodes = 1
	return best, nil
}

// LastSearch reports the last move and the network's value of the position.
func (n *Neural) LastSearch() agents.SearchInfo {
	info := n.info
	info.PV = append([]int(nil), n.info.PV...)
	return info
}

// String describes the agent.
func (n *Neural) String() string { return n.desc }
