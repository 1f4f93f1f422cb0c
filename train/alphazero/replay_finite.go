package alphazero

import (
	"fmt"
	"math"
)

// checkFinite returns an error naming the first row of b, with its game and
// ply, that holds a NaN or ±Inf (in its observation, policy target, value
// target, root value or score target), or nil. Such a row would train the network into NaN
// weights while the mean losses still print as numbers. Only the rows added
// since the last check that passed are read (all of them the first time).
func (b *Buffer) checkFinite() error {
	bad := func(v []float32) int {
		for k, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return k
			}
		}
		return -1
	}
	fresh := int(min(b.added-b.checked, int64(b.n)))
	if b.checked == 0 {
		fresh = b.n
	}
	for k := 0; k < fresh; k++ {
		i := ((b.next-1-k)%b.window + b.window) % b.window
		where := ""
		var x float32
		if k := bad(b.rows.Obs[i*b.dim : (i+1)*b.dim]); k >= 0 {
			where, x = fmt.Sprintf("observation column %d", k), b.rows.Obs[i*b.dim+k]
		} else if k := bad(b.rows.Policy[i*b.actions : (i+1)*b.actions]); k >= 0 {
			where, x = fmt.Sprintf("policy target of action %d", k), b.rows.Policy[i*b.actions+k]
		} else if bad(b.rows.Outcome[i:i+1]) >= 0 {
			where, x = "value target", b.rows.Outcome[i]
		} else if bad(b.rows.Value[i:i+1]) >= 0 {
			where, x = "root value", b.rows.Value[i]
		} else if b.rows.Margin != nil && bad(b.rows.Margin[i:i+1]) >= 0 {
			where, x = "score target", b.rows.Margin[i]
		}
		if where != "" {
			return fmt.Errorf("row %d (game %d, ply %d): the %s is %g, not a finite number", i, b.game[i], b.rows.Ply[i], where, x)
		}
	}
	b.checked = b.added
	return nil
}
