package nn

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/splitmix"
)

// defaultPPO is train's default PPO loss (configs: clip 0.2, value clip 0.2,
// entropy 0.01, value 0.5).
var defaultPPO = PPOLoss{Clip: 0.2, ValueClip: 0.2, EntropyCoef: 0.01, ValueCoef: 0.5}

// newPPOTargets returns a batch of rows targets (no observations) with every
// slice allocated.
func newPPOTargets(rows, actions int) PPOBatch {
	return PPOBatch{Mask: make([]float32, rows*actions), Action: make([]int32, rows), OldLogProb: make([]float32, rows),
		OldValue: make([]float32, rows), Advantage: make([]float32, rows), Return: make([]float32, rows), N: rows}
}

// TestPPOLossGradient checks the clipped surrogate, the clipped value loss
// and the entropy bonus against central finite differences, on rows where
// some ratios are clipped and some values are.
func TestPPOLossGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows, actions = 12, 5
	coef := defaultPPO
	coef.EntropyCoef = 0.05
	b := newPPOTargets(rows, actions)
	l := &ppoLoss{coef: coef, b: b}
	logits := make([]float32, rows*actions)
	values := make([]float32, rows)
	for r := 0; r < rows; r++ {
		var legal []int
		for a := 0; a < actions; a++ {
			if a == r%actions || rng.IntN(3) > 0 {
				b.Mask[r*actions+a] = 1
				legal = append(legal, a)
			}
			logits[r*actions+a] = float32(rng.NormFloat64())
		}
		act := legal[rng.IntN(len(legal))]
		b.Action[r] = int32(act)
		// The old log-probability: the current one shifted by up to ±0.5,
		// so about half the ratios fall outside [0.8, 1.2].
		b.OldLogProb[r] = float32(logProb(logits[r*actions:(r+1)*actions], b.Mask[r*actions:(r+1)*actions], act) + rng.Float64() - 0.5)
		b.Advantage[r] = float32(rng.NormFloat64())
		values[r] = float32(rng.Float64()*1.6 - 0.8)
		b.OldValue[r] = values[r] + float32(rng.Float64()*0.8-0.4)
		b.Return[r] = float32(rng.Float64()*2 - 1)
	}
	dl := make([]float32, rows*actions)
	dv := make([]float32, rows)
	scratchL := make([]float32, rows*actions)
	scratchV := make([]float32, rows)
	l.loss(logits, values, rows, actions, dl, dv)
	if l.clipFrac == 0 || l.clipFrac == 1 {
		t.Fatalf("clip fraction %v: the test wants clipped and unclipped rows", l.clipFrac)
	}
	f := func() float64 { return l.loss(logits, values, rows, actions, scratchL, scratchV) }
	const h = 1e-3
	check := func(what string, x *float32, grad float32) {
		old := *x
		*x = old + h
		up := f()
		*x = old - h
		down := f()
		*x = old
		fd := (up - down) / (2 * h)
		if math.Abs(fd-float64(grad)) > 2e-4+1e-3*math.Abs(fd) {
			t.Errorf("%s: gradient %.6f, finite difference %.6f", what, grad, fd)
		}
	}
	for i := range logits {
		check("logit "+strconv.Itoa(i), &logits[i], dl[i])
		if b.Mask[i] == 0 && dl[i] != 0 {
			t.Errorf("illegal logit %d has gradient %v", i, dl[i])
		}
	}
	for r := range values {
		check("value "+strconv.Itoa(r), &values[r], dv[r])
	}
}

func logProb(z, mask []float32, act int) float64 {
	var sum float64
	for a, v := range z {
		if mask[a] != 0 {
			sum += math.Exp(float64(v))
		}
	}
	return float64(z[act]) - math.Log(sum)
}

// TestPPOLossGolden pins PPO's loss bit for bit: the SHA-256 below is that
// of the gradients and figures of the loss as train computed it through
// nn.HeadLoss before the loss moved into nn (commit ebaab87), on 600 rows of
// splitmix-drawn logits and targets (three blocks of rows).
func TestPPOLossGolden(t *testing.T) {
	const rows, actions = 600, 6
	x := uint64(0)
	u := func() float64 { x++; return float64(splitmix.Mix(x)>>11) / (1 << 53) }
	b := newPPOTargets(rows, actions)
	logits := make([]float32, rows*actions)
	values := make([]float32, rows)
	for r := 0; r < rows; r++ {
		act := int(u() * actions)
		for a := 0; a < actions; a++ {
			if a == act || u() < 0.6 {
				b.Mask[r*actions+a] = 1
			}
			logits[r*actions+a] = float32(u()*4 - 2)
		}
		b.Action[r] = int32(act)
		b.OldLogProb[r] = float32(-u() * 2)
		b.Advantage[r] = float32(u()*2 - 1)
		values[r] = float32(u()*1.8 - 0.9)
		b.OldValue[r] = float32(u()*1.8 - 0.9)
		b.Return[r] = float32(u()*2 - 1)
	}
	for _, threads := range []int{1, 3} {
		p := newPool(threads)
		run := func(units int, f func(int)) { p.do(funcJob(f), units) }
		l := &ppoLoss{coef: defaultPPO, b: b, run: run}
		l.blockFn = l.block
		dl := make([]float32, rows*actions)
		dv := make([]float32, rows)
		loss := l.loss(logits, values, rows, actions, dl, dv)
		p.close()
		h := sha256.New()
		binary.Write(h, binary.LittleEndian, dl)
		binary.Write(h, binary.LittleEndian, dv)
		for _, f := range []float64{loss, l.policy, l.value, l.entropy, l.kl, l.clipFrac} {
			binary.Write(h, binary.LittleEndian, math.Float64bits(f))
		}
		const want = "703e633f54520ef3ebe5e4121b8584acc3d99c428ef9195c608cfe5d904c4726"
		if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
			t.Errorf("%d threads: sha256 %s, want %s (loss %v, policy %v, value %v, entropy %v, kl %v, clip %v)",
				threads, got, want, loss, l.policy, l.value, l.entropy, l.kl, l.clipFrac)
		}
	}
}

// TestStepPPOMatchesHeadLoss: StepPPO, with the loss on the trainer's
// threads, is StepLoss with PPO's loss as a host-side HeadLoss, bit for bit:
// the same figures and the same weights after three steps.
func TestStepPPOMatchesHeadLoss(t *testing.T) {
	g := env.MustGame(env.Urim)
	const rows = 300
	var nets [2]*Net
	var trs [2]*Trainer
	for i := range nets {
		n, err := New(Arch{Kind: KindResMLP, Width: 32, Depth: 2, LayerNorm: true}, g.Rules(), env.EncodingCompact, 9)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewTrainer(n, TrainConfig{Threads: 3, ClipNorm: 1}, rows)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		nets[i], trs[i] = n, tr
	}
	rng := rand.New(rand.NewPCG(5, 6))
	a := nets[0].Actions()
	b := newPPOTargets(rows, a)
	b.Obs = make([]float32, rows*nets[0].InputDim())
	for i := range b.Obs {
		b.Obs[i] = float32(rng.IntN(4))
	}
	for r := 0; r < rows; r++ {
		b.Action[r] = int32(rng.IntN(a))
		for j := 0; j < a; j++ {
			if j == int(b.Action[r]) || rng.IntN(2) == 0 {
				b.Mask[r*a+j] = 1
			}
		}
		b.OldLogProb[r] = float32(-rng.Float64() * 2)
		b.OldValue[r] = float32(rng.Float64()*2 - 1)
		b.Advantage[r] = float32(rng.NormFloat64())
		b.Return[r] = float32(rng.Float64()*2 - 1)
	}
	host := &ppoLoss{coef: defaultPPO, b: b}
	for step := 0; step < 3; step++ {
		got := trs[0].StepPPO(b, defaultPPO)
		want := trs[1].StepLoss(b.Obs, rows, host.loss)
		want.Policy, want.Value, want.Entropy, want.KL = host.policy, host.value, host.entropy, host.kl
		if got.StepStats != want || got.ClipFrac != host.clipFrac {
			t.Fatalf("step %d: StepPPO %+v, StepLoss %+v (clip %v)", step, got, want, host.clipFrac)
		}
	}
	for i, p := range nets[0].Params() {
		q := nets[1].Params()[i]
		for j := range p.W {
			if math.Float32bits(p.W[j]) != math.Float32bits(q.W[j]) {
				t.Fatalf("%s[%d]: %v after StepPPO, %v after StepLoss", p.Name, j, p.W[j], q.W[j])
			}
		}
	}
}
