package ppo

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// metaPool is the checkpoint metadata key of the opponent pool: the
// snapshot iterations, comma-separated.
const metaPool = "ppo_pool"

// poolAfter returns the opponent pool once iteration it is complete: the
// previous pool, plus it when it is a snapshot iteration, the newest
// ppo.pool.size kept.
func poolAfter(prev []int, it int, p Pool) []int {
	out := append([]int(nil), prev...)
	if p.Share > 0 && it > 0 && it%p.Every == 0 {
		out = append(out, it)
	}
	if len(out) > p.Size {
		out = out[len(out)-p.Size:]
	}
	return out
}

func formatPool(pool []int) string {
	s := make([]string, len(pool))
	for i, it := range pool {
		s[i] = strconv.Itoa(it)
	}
	return strings.Join(s, ",")
}

// parsePool reads a checkpoint's pool metadata.
func parsePool(meta map[string]string) ([]int, error) {
	v := meta[metaPool]
	if v == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		it, err := strconv.Atoi(f)
		if err != nil || it < 0 {
			return nil, fmt.Errorf("train: ppo: checkpoint metadata %s=%q is not a list of iterations", metaPool, v)
		}
		out = append(out, it)
	}
	return out, nil
}

// setPool loads the snapshots of iterations pool, reusing those loaded.
func (s *ppoState) setPool(sess *train.Session, pool []int) error {
	have := map[int]*nn.Net{}
	for k, it := range s.pool {
		have[it] = s.poolNets[k]
	}
	nets := make([]*nn.Net, len(pool))
	preds := make([]nn.Inference, len(pool))
	for k, it := range pool {
		net := have[it]
		if net == nil {
			var err error
			if net, err = nn.LoadNetFor(train.CheckpointPath(sess.Dir, it), sess.Rules, sess.Encoding); err != nil {
				return fmt.Errorf("train: ppo: opponent pool: %w", err)
			}
		}
		nets[k] = net
		preds[k] = net.NewInference(max(s.oppGames, 1), 1)
	}
	s.pool, s.poolNets, s.poolPreds = append([]int(nil), pool...), nets, preds
	s.rows = make([][]int, len(pool))
	for k := range s.rows {
		s.rows[k] = make([]int, 0, s.oppGames)
	}
	return nil
}

// pickSnapshot draws a snapshot index: uniformly, or with weight k+1 for
// the k-th oldest (recency).
func pickSnapshot(n int, sampling string, rng *rand.Rand) int {
	if sampling != "recency" {
		return rng.IntN(n)
	}
	x := rng.IntN(n * (n + 1) / 2)
	for k := 0; k < n; k++ {
		if x < k+1 {
			return k
		}
		x -= k + 1
	}
	return n - 1
}
