package evaluate

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// eloScale converts natural-log strength differences to Elo points:
// 400/ln 10, so that 400 Elo is a factor of 10 in the odds.
const eloScale = 400 / math.Ln10

// z95 is the two-sided 95% quantile of the standard normal.
const z95 = 1.959963984540054

// DefaultPriorDraws is the number of virtual draws [FitElo] adds to every
// pairing that played when EloOptions.PriorDraws is 0.
const DefaultPriorDraws = 1

// Outcome is the result of one game between players I and J: Score is I's
// result, 1 for a win, 0.5 for a draw, 0 for a loss.
type Outcome struct {
	I, J  int
	Score float64
}

// EloOptions set up a fit. The zero value anchors player 0 at 0 Elo with the
// default prior.
type EloOptions struct {
	// Anchor is the index of the player whose rating is fixed.
	Anchor int
	// AnchorElo is the anchor's rating.
	AnchorElo float64
	// PriorDraws is the number of virtual draws added to every pairing that
	// played at least one game. They keep the fit finite when a player wins
	// or loses every game, and shrink ratings slightly towards each other.
	// 0 means DefaultPriorDraws; a negative value adds none, and then a
	// player with a perfect or zero score makes the fit fail with
	// ErrSeparated.
	PriorDraws float64
}

// Rating is one player's fitted rating.
type Rating struct {
	Name string `json:"name"`
	// Elo is the rating, SE its standard error relative to the anchor (0
	// for the anchor itself), Lo and Hi the 95% interval.
	Elo float64 `json:"elo"`
	SE  float64 `json:"se"`
	Lo  float64 `json:"lo95"`
	Hi  float64 `json:"hi95"`
	// Games is the number of games played, Score the mean result (a draw
	// counts half), prior draws excluded.
	Games int     `json:"games"`
	Score float64 `json:"score"`
}

// Ratings is the result of [FitElo].
type Ratings struct {
	Players []Rating `json:"players"`
	Anchor  string   `json:"anchor"`
	// Cov is the covariance of the ratings in Elo², zero in the anchor's
	// row and column.
	Cov [][]float64 `json:"covariance"`
	// Superiority[i][j] is the probability that player i is stronger than
	// player j: Φ((Ri−Rj)/sd(Ri−Rj)) under the fit's normal approximation
	// (0.5 on the diagonal).
	Superiority [][]float64 `json:"superiority"`
}

// Errors of the Elo fit.
var (
	// ErrSeparated: without a prior, a player that won (or lost) every game
	// has no finite maximum-likelihood rating.
	ErrSeparated = errors.New("evaluate: a player won or lost every game, so its rating is unbounded (use prior draws)")
	// ErrDisconnected: some players have no chain of games to the anchor,
	// so their ratings are not determined.
	ErrDisconnected = errors.New("evaluate: players not linked to the anchor by games")
)

// ExpectedScore returns the expected score of a player rated elo points above
// its opponent: 1/(1+10^(−elo/400)).
func ExpectedScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// EloFromScore is the inverse of ExpectedScore: the rating difference that
// gives expected score s, ±Inf at 1 and 0.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// FitElo fits Bradley–Terry ratings to outcomes between len(names) players by
// maximum likelihood (Newton's method with step halving) and returns them on
// the 400-point scale with the anchor fixed. Standard errors come from the
// inverse Fisher information of the other players' ratings. Counting a draw
// as half a win and half a loss gives the right ratings but slightly too wide
// intervals when there are many draws.
func FitElo(names []string, outcomes []Outcome, opt EloOptions) (*Ratings, error) {
	n := len(names)
	if n == 0 {
		return nil, errors.New("evaluate: FitElo with no players")
	}
	if opt.Anchor < 0 || opt.Anchor >= n {
		return nil, fmt.Errorf("evaluate: anchor index %d out of range 0..%d", opt.Anchor, n-1)
	}
	prior := opt.PriorDraws
	if prior == 0 {
		prior = DefaultPriorDraws
	}
	prior = max(prior, 0)

	// games[i][j] counts games (with prior draws), wins[i][j] i's points.
	games := square(n)
	wins := square(n)
	played := make([]int, n)
	points := make([]float64, n)
	for k, o := range outcomes {
		if o.I < 0 || o.I >= n || o.J < 0 || o.J >= n || o.I == o.J {
			return nil, fmt.Errorf("evaluate: outcome %d: players %d and %d out of range or equal", k, o.I, o.J)
		}
		if o.Score < 0 || o.Score > 1 {
			return nil, fmt.Errorf("evaluate: outcome %d: score %g outside [0, 1]", k, o.Score)
		}
		games[o.I][o.J]++
		games[o.J][o.I]++
		wins[o.I][o.J] += o.Score
		wins[o.J][o.I] += 1 - o.Score
		played[o.I]++
		played[o.J]++
		points[o.I] += o.Score
		points[o.J] += 1 - o.Score
	}
	if err := checkConnected(names, games, opt.Anchor); err != nil {
		return nil, err
	}
	for i := range n {
		for j := range n {
			if i != j && games[i][j] > 0 {
				games[i][j] += prior
				wins[i][j] += prior / 2
			}
		}
	}

	theta, info, err := newtonBT(games, wins, opt.Anchor)
	if err != nil {
		for i, t := range theta {
			if math.Abs(t) > maxTheta {
				return nil, fmt.Errorf("%w: %s", err, names[i])
			}
		}
		return nil, err
	}

	cov := square(n)
	free := freeIndex(n, opt.Anchor)
	if len(free) > 0 {
		var chol mat.Cholesky
		if !chol.Factorize(info) {
			return nil, fmt.Errorf("evaluate: Elo fit: Fisher information is not positive definite")
		}
		var inv mat.SymDense
		if err := chol.InverseTo(&inv); err != nil {
			return nil, fmt.Errorf("evaluate: Elo fit: %w", err)
		}
		for a, i := range free {
			for b, j := range free {
				cov[i][j] = inv.At(a, b) * eloScale * eloScale
			}
		}
	}

	r := &Ratings{Anchor: names[opt.Anchor], Cov: cov, Players: make([]Rating, n)}
	for i := range n {
		elo := opt.AnchorElo + theta[i]*eloScale
		se := math.Sqrt(cov[i][i])
		score := 0.0
		if played[i] > 0 {
			score = points[i] / float64(played[i])
		}
		r.Players[i] = Rating{Name: names[i], Elo: elo, SE: se, Lo: elo - z95*se, Hi: elo + z95*se, Games: played[i], Score: score}
	}
	r.Superiority = square(n)
	for i := range n {
		for j := range n {
			r.Superiority[i][j] = r.superiority(i, j)
		}
	}
	return r, nil
}

// superiority is P(Ri > Rj) under the normal approximation.
func (r *Ratings) superiority(i, j int) float64 {
	if i == j {
		return 0.5
	}
	d := r.Players[i].Elo - r.Players[j].Elo
	v := r.Cov[i][i] + r.Cov[j][j] - 2*r.Cov[i][j]
	if v <= 0 {
		switch {
		case d > 0:
			return 1
		case d < 0:
			return 0
		}
		return 0.5
	}
	return distuv.UnitNormal.CDF(d / math.Sqrt(v))
}

// Index returns the position of the player named name, or -1.
func (r *Ratings) Index(name string) int {
	for i, p := range r.Players {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// maxTheta bounds a strength in natural-log units (about 5,200 Elo): beyond
// it the fit is taken to diverge.
const maxTheta = 30

// newtonBT maximises the Bradley–Terry log-likelihood over the strengths of
// every player but the anchor (held at 0). It returns the strengths and the
// Fisher information of the free ones at the optimum.
func newtonBT(games, wins [][]float64, anchor int) ([]float64, *mat.SymDense, error) {
	n := len(games)
	free := freeIndex(n, anchor)
	theta := make([]float64, n)
	m := len(free)
	if m == 0 {
		return theta, nil, nil
	}
	info := mat.NewSymDense(m, nil)
	grad := mat.NewVecDense(m, nil)
	var step mat.VecDense
	ll := logLik(games, wins, theta)
	for iter := 0; iter < 200; iter++ {
		fisher(games, theta, free, info)
		for a, i := range free {
			g := 0.0
			for j := range n {
				if games[i][j] > 0 {
					g += wins[i][j] - games[i][j]*logistic(theta[i]-theta[j])
				}
			}
			grad.SetVec(a, g)
		}
		var chol mat.Cholesky
		if !chol.Factorize(info) {
			return theta, nil, ErrSeparated
		}
		if err := chol.SolveVecTo(&step, grad); err != nil {
			return theta, nil, ErrSeparated
		}
		// Step halving keeps every step uphill.
		next := make([]float64, n)
		scale := 1.0
		var nextLL float64
		for half := 0; ; half++ {
			copy(next, theta)
			for a, i := range free {
				next[i] += scale * step.AtVec(a)
			}
			nextLL = logLik(games, wins, next)
			if nextLL >= ll-1e-12 || half == 30 {
				break
			}
			scale /= 2
		}
		biggest := 0.0
		for a := range free {
			biggest = max(biggest, math.Abs(scale*step.AtVec(a)))
		}
		theta, ll = next, nextLL
		for _, t := range theta {
			if math.Abs(t) > maxTheta {
				return theta, nil, ErrSeparated
			}
		}
		if biggest < 1e-10 {
			fisher(games, theta, free, info)
			return theta, info, nil
		}
	}
	return theta, nil, errors.New("evaluate: Elo fit did not converge in 200 Newton steps")
}

// fisher fills info with the Fisher information of the free strengths.
func fisher(games [][]float64, theta []float64, free []int, info *mat.SymDense) {
	n := len(games)
	for a, i := range free {
		for b := a; b < len(free); b++ {
			j := free[b]
			if i == j {
				v := 0.0
				for k := range n {
					if games[i][k] > 0 {
						p := logistic(theta[i] - theta[k])
						v += games[i][k] * p * (1 - p)
					}
				}
				info.SetSym(a, b, v)
				continue
			}
			p := logistic(theta[i] - theta[j])
			info.SetSym(a, b, -games[i][j]*p*(1-p))
		}
	}
}

func logLik(games, wins [][]float64, theta []float64) float64 {
	ll := 0.0
	for i := range games {
		for j := i + 1; j < len(games); j++ {
			if games[i][j] == 0 {
				continue
			}
			d := theta[i] - theta[j]
			// log p = −log(1+e^−d), log(1−p) = −log(1+e^d), written stably.
			ll -= wins[i][j]*softplus(-d) + wins[j][i]*softplus(d)
		}
	}
	return ll
}

func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

func logistic(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func freeIndex(n, anchor int) []int {
	free := make([]int, 0, n)
	for i := range n {
		if i != anchor {
			free = append(free, i)
		}
	}
	return free
}

func square(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// checkConnected reports the players that no chain of games links to the
// anchor.
func checkConnected(names []string, games [][]float64, anchor int) error {
	seen := make([]bool, len(names))
	seen[anchor] = true
	queue := []int{anchor}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for j := range names {
			if !seen[j] && games[i][j] > 0 {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	var lost []string
	for i, ok := range seen {
		if !ok {
			lost = append(lost, names[i])
		}
	}
	if len(lost) > 0 {
		return fmt.Errorf("%w %s: %s", ErrDisconnected, names[anchor], strings.Join(lost, ", "))
	}
	return nil
}
