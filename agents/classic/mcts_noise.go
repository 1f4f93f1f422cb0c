package classic

import (
	"math"
	"math/rand/v2"
)

// gammaSample draws from the Gamma(a, 1) distribution (a > 0) by
// Marsaglia and Tsang's method, boosted for a < 1 by a uniform power.
func gammaSample(r *rand.Rand, a float64) float64 {
	if a < 1 {
		return gammaSample(r, a+1) * math.Pow(r.Float64(), 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// dirichlet fills out with a draw from the symmetric Dirichlet distribution
// of concentration alpha over len(out) categories.
func dirichlet(r *rand.Rand, alpha float64, out []float64) {
	var sum float64
	for i := range out {
		out[i] = gammaSample(r, alpha)
		sum += out[i]
	}
	if sum == 0 { // every draw underflowed (tiny alpha): one category takes all
		out[r.IntN(len(out))] = 1
		return
	}
	for i := range out {
		out[i] /= sum
	}
}

// addRootNoise mixes Dirichlet noise into the priors of the root's
// children: P ← (1 − frac)·P + frac·η, η ~ Dir(alpha).
func (t *tree) addRootNoise(r *rand.Rand, alpha, frac float64) {
	root := &t.nodes[0]
	var eta [8]float64
	k := int(root.kids)
	dirichlet(r, alpha, eta[:k])
	for i := range k {
		c := &t.nodes[root.first+int32(i)]
		c.prior = float32((1-frac)*float64(c.prior) + frac*eta[i])
	}
}

// temperRoot raises the priors of the root's children to 1/temp and
// renormalises them (KataGo's root policy temperature).
func (t *tree) temperRoot(temp float64) {
	root := &t.nodes[0]
	kids := t.nodes[root.first : root.first+int32(root.kids)]
	var sum float64
	for i := range kids {
		p := math.Pow(float64(kids[i].prior), 1/temp)
		kids[i].prior = float32(p)
		sum += p
	}
	if sum == 0 {
		return // every prior was 0: nothing to spread
	}
	for i := range kids {
		kids[i].prior = float32(float64(kids[i].prior) / sum)
	}
}
