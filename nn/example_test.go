package nn_test

import (
	"fmt"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// A network reads the rows the env encoder writes and gives one logit per
// action and a value in [-1, 1].
func ExampleNet_NewPredictor() {
	net, err := nn.New(nn.DefaultArch(), env.Urim, env.EncodingCompact, 1)
	if err != nil {
		panic(err)
	}
	g := env.MustGame(env.Urim)
	enc := env.NewEncoder(g, env.EncodingCompact)
	obs := make([]float32, enc.Dim())
	s := g.Start()
	enc.Encode(obs, &s)

	p := net.NewPredictor(1)
	logits, values := p.Predict(obs, 1)
	fmt.Println(net.Arch(), net.InputDim(), "inputs,", len(logits), "logits,", len(values), "value in [-1, 1]:", values[0] >= -1 && values[0] <= 1)
	// Output: mlp 3x256 17 inputs, 6 logits, 1 value in [-1, 1]: true
}

// A Trainer fits the policy to a target distribution over the legal actions
// and the value to a target.
func ExampleTrainer() {
	net, _ := nn.New(nn.Arch{Kind: nn.KindResMLP, Width: 32, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	tr, err := nn.NewTrainer(net, nn.TrainConfig{Schedule: nn.Schedule{LR: 3e-3}, ClipNorm: 1}, 1)
	if err != nil {
		panic(err)
	}
	g := env.MustGame(env.Urim)
	obs := make([]float32, net.InputDim())
	s := g.Start()
	env.NewEncoder(g, env.EncodingCompact).Encode(obs, &s)
	b := nn.Batch{Rows: env.Rows{Obs: obs, Mask: []bool{true, true, true, true, true, true}, Policy: []float32{0, 0, 1, 0, 0, 0},
		Outcome: []float32{0.5}}, N: 1}
	for i := 0; i < 200; i++ {
		tr.Step(b)
	}
	st := tr.Evaluate(b)
	fmt.Printf("after %d steps: KL %.2f, value error %.2f\n", tr.Steps(), st.KL, st.Value)
	// Output: after 200 steps: KL 0.00, value error 0.00
}
