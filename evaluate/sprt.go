package evaluate

import (
	"errors"
	"fmt"
	"math"
)

// SPRT is a sequential probability ratio test of H0: "A is Elo0 stronger
// than B" against H1: "A is Elo1 stronger", with error rates Alpha (accepting
// H1 when H0 holds) and Beta (accepting H0 when H1 holds). Elo here is
// logistic Elo, the scale of [ExpectedScore].
//
// The log-likelihood ratio is the generalized one fishtest uses (GSPRT): for
// each hypothesis, the distribution of game results closest to the observed
// one (maximum likelihood) among those whose mean score is the hypothesis's
// expected score, then the ratio of the two likelihoods. The test stops at
// the first game where the ratio leaves (log(β/(1−α)), log((1−β)/α)).
type SPRT struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
}

// Decision is the state of an SPRT.
type Decision int

const (
	// Continue: the ratio is between the bounds; play on.
	Continue Decision = iota
	// AcceptH0: A is not Elo1 stronger (the ratio fell below the lower
	// bound).
	AcceptH0
	// AcceptH1: A is stronger by at least about Elo1 (the ratio rose above
	// the upper bound).
	AcceptH1
)

var decisionNames = [...]string{"continue", "H0", "H1"}

// String returns "continue", "H0" or "H1".
func (d Decision) String() string {
	if int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// MarshalText writes the decision's name.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Check reports a test that cannot run: Elo1 must exceed Elo0 and both
// error rates must lie in (0, 0.5).
func (t SPRT) Check() error {
	if !(t.Elo1 > t.Elo0) {
		return fmt.Errorf("evaluate: SPRT: elo1 %g must be greater than elo0 %g", t.Elo1, t.Elo0)
	}
	if !(t.Alpha > 0 && t.Alpha < 0.5) || !(t.Beta > 0 && t.Beta < 0.5) {
		return fmt.Errorf("evaluate: SPRT: alpha %g and beta %g must lie strictly between 0 and 0.5", t.Alpha, t.Beta)
	}
	return nil
}

// Bounds returns the lower and upper log-likelihood-ratio bounds:
// log(β/(1−α)) and log((1−β)/α).
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// Decide compares a log-likelihood ratio with the bounds.
func (t SPRT) Decide(llr float64) Decision {
	lo, hi := t.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}

// LLRTrinomial returns the log-likelihood ratio of A's wins, draws and
// losses.
func (t SPRT) LLRTrinomial(wins, draws, losses int) float64 {
	return t.llr([]float64{0, 0.5, 1}, []int{losses, draws, wins})
}

// LLRPentanomial returns the log-likelihood ratio of game pairs (the two
// games of a paired opening) counted by A's points in the pair:
// pairs[k] counts pairs where A scored k/2 points (0, ½, 1, 1½, 2).
// Pairs are independent where single games of one opening are not, which is
// why fishtest counts paired games this way.
func (t SPRT) LLRPentanomial(pairs [5]int) float64 {
	return t.llr([]float64{0, 0.25, 0.5, 0.75, 1}, pairs[:])
}

// llr computes the GSPRT ratio for results with the given scores (in [0, 1])
// and counts.
func (t SPRT) llr(scores []float64, counts []int) float64 {
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	// Empty categories get a tiny count (as fishtest does) so that every
	// hypothesis mean lies inside the observed support.
	const eps = 1e-3
	p := make([]float64, len(counts))
	sum := 0.0
	for k, c := range counts {
		p[k] = max(float64(c), eps)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
	s0, s1 := ExpectedScore(t.Elo0), ExpectedScore(t.Elo1)
	l0, err0 := mleLambda(p, scores, s0)
	l1, err1 := mleLambda(p, scores, s1)
	if err0 != nil || err1 != nil {
		return 0
	}
	// The constrained MLE is p_k/(1+λ(x_k−s)); the ratio of likelihoods is
	// Σ n_k log((1+λ0(x_k−s0)) / (1+λ1(x_k−s1))).
	llr := 0.0
	for k, c := range counts {
		if c == 0 {
			continue
		}
		llr += float64(c) * (math.Log1p(l0*(scores[k]-s0)) - math.Log1p(l1*(scores[k]-s1)))
	}
	return llr
}

// mleLambda finds the Lagrange multiplier λ of the distribution
// q_k = p_k/(1+λ(x_k−s)) that maximises Σ p_k log q_k under Σ q_k x_k = s,
// by bisection on Σ p_k (x_k−s)/(1+λ(x_k−s)) = 0, which decreases in λ.
func mleLambda(p, x []float64, s float64) (float64, error) {
	dmin, dmax := math.Inf(1), math.Inf(-1)
	for k := range p {
		d := x[k] - s
		dmin, dmax = min(dmin, d), max(dmax, d)
	}
	if !(dmin < 0 && dmax > 0) {
		return 0, errors.New("evaluate: SPRT: expected score outside the results' range")
	}
	// 1+λd > 0 for every d: λ in (−1/dmax, −1/dmin).
	lo, hi := -1/dmax, -1/dmin
	f := func(l float64) float64 {
		v := 0.0
		for k := range p {
			d := x[k] - s
			v += p[k] * d / (1 + l*d)
		}
		return v
	}
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, nil
}
