package network

import (
	"fmt"
	"os"
	"strconv"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/nn"
)

// The spec parameters and the checkpoint cache of the agents that play a
// network (neural, az).

// ckptParam reads the required ckpt parameter.
func ckptParam(p *agents.Params) string {
	path := p.File("ckpt", "")
	if path == "" {
		p.Fail("ckpt", path, "the path of a network checkpoint (urim nn new --out writes one)")
	} else if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		// Checked here, before Done, so that Validate catches it too.
		why := "is not a regular file"
		if err != nil {
			why = err.Error()
		}
		p.Fail("ckpt", path, "a network checkpoint file ("+why+")")
	} else if g := p.Game(); g != nil {
		// ValidateFor: the network must be for the game to be played.
		if net, err := loadAgentNet(path); err != nil {
			p.Fail("ckpt", path, "a readable network checkpoint ("+err.Error()+")")
		} else if r := net.Rules(); !r.SamePlay(g.Rules()) {
			p.Fail("ckpt", path, fmt.Sprintf("a network for the rules played here; this one was trained for %s", r.Mismatch(g.Rules())))
		}
	}
	return path
}

// precisionParam reads the optional precision parameter: fp32 (the default) or
// int8, the arithmetic of the network's forward passes (nn.Precision).
func precisionParam(p *agents.Params) nn.Precision {
	v := p.String("precision", "fp32")
	prec, err := nn.ParsePrecision(v)
	if err != nil {
		p.Fail("precision", v, nn.Precisions+" (int8: the hidden layers in int8, docs/nn.md)")
	}
	return prec
}

// precisionDesc is the precision parameter as a spec's description shows
// it: nothing at fp32.
func precisionDesc(prec nn.Precision) string {
	if prec == nn.FP32 {
		return ""
	}
	return ",precision=" + prec.String()
}

// seedParam reads the optional seed parameter, which replaces the agent's seed.
func seedParam(p *agents.Params, def uint64) uint64 {
	v := p.String("seed", "")
	if v == "" {
		return def
	}
	s, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		p.Fail("seed", v, "an integer from 0 to 2^64-1")
		return def
	}
	return s
}

// nets keeps the networks loaded by agent specs: a network is read only
// (each agent makes its own predictors), so agents share it.
var nets agents.Cache[*nn.Net]

// loadAgentNet reads the network of a checkpoint for an agent, or takes it
// from nets.
func loadAgentNet(path string) (*nn.Net, error) {
	net, err := nets.Load(path, nn.LoadNet)
	if err != nil {
		return nil, fmt.Errorf("agents: loading the network: %w", err)
	}
	return net, nil
}
