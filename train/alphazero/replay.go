package alphazero

import (
	"math/rand/v2"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Buffer is the replay window in memory: a ring of the newest positions
// with a policy target, drawn from the window's dataset shards (window.go)
// and held in the row schema, env.Rows (dataset.Columns): observation, mask,
// visit distribution (the policy target), search value, outcome (the value
// target) and ply, with each row's game id, and for a run that trains a
// score head (training.score_weight) the margin (the score target). Its
// arrays are allocated once, at full size; adding and sampling allocate
// nothing.
type Buffer struct {
	dim, actions, window int

	rows env.Rows // window rows (Action and HasPolicy are not kept)
	game []int64

	n, next int   // rows filled; the row the next add writes
	added   int64 // rows ever added
	checked int64 // the value of added when checkFinite last passed
}

// BufferBytes is the memory NewBuffer allocates for window rows of dim
// observation columns and actions policy columns, with the margins of a
// score head when margins is set.
func BufferBytes(dim, actions, window int, margins bool) uint64 {
	row := 4*dim + actions + 4*actions + 3*4 + 8 // obs, mask, policy, value+outcome+ply, game
	if margins {
		row += 4
	}
	return uint64(window) * uint64(row)
}

// NewBuffer returns an empty buffer of window rows of dim observation
// columns and actions policy columns.
func NewBuffer(dim, actions, window int) *Buffer { return newBuffer(dim, actions, window, false) }

// newBuffer is NewBuffer, holding the rows' margins too when margins is set:
// then every row added must have one.
func newBuffer(dim, actions, window int, margins bool) *Buffer {
	b := &Buffer{dim: dim, actions: actions, window: window, rows: env.Rows{
		Obs: make([]float32, window*dim), Mask: make([]bool, window*actions), Policy: make([]float32, window*actions),
		Value: make([]float32, window), Outcome: make([]float32, window), Ply: make([]int32, window),
	}, game: make([]int64, window)}
	if margins {
		b.rows.Margin = make([]float32, window)
	}
	return b
}

// margins reports whether the buffer holds the rows' margins.
func (b *Buffer) margins() bool { return b.rows.Margin != nil }

// Len returns the number of positions held.
func (b *Buffer) Len() int { return b.n }

// Added returns the number of positions ever added.
func (b *Buffer) Added() int64 { return b.added }

// add appends row i of c (of b's widths), of game id, dropping the oldest
// row when the buffer is full.
func (b *Buffer) add(c *dataset.Columns, i int, id int64) {
	d, a, j := b.dim, b.actions, b.next
	copy(b.rows.Obs[j*d:(j+1)*d], c.Obs[i*d:(i+1)*d])
	copy(b.rows.Mask[j*a:(j+1)*a], c.Mask[i*a:(i+1)*a])
	copy(b.rows.Policy[j*a:(j+1)*a], c.Policy[i*a:(i+1)*a])
	b.rows.Value[j], b.rows.Outcome[j], b.rows.Ply[j] = c.Value[i], c.Outcome[i], c.Ply[i]
	if b.rows.Margin != nil {
		b.rows.Margin[j] = c.Margin[i]
	}
	b.game[j] = id
	b.next = (b.next + 1) % b.window
	b.n = min(b.n+1, b.window)
	b.added++
}

// addRows appends the first n rows of c that have a policy target, in
// order, the rows of game ids[i] (or of game id when ids is nil), and
// returns how many.
func (b *Buffer) addRows(c *dataset.Columns, n int, ids []int64, id int64) int {
	k := 0
	for i := 0; i < n; i++ {
		if !c.HasPolicy[i] {
			continue
		}
		if ids != nil {
			id = ids[i]
		}
		b.add(c, i, id)
		k++
	}
	return k
}

// row returns the ring index of the k-th oldest row held: sampling by age
// rather than by ring slot makes the draws depend only on the rows held and
// their order, so a window rebuilt from its shards samples as the original.
func (b *Buffer) row(k int) int { return (b.next - b.n + k + b.window) % b.window }

// Newest copies the most recent n rows (fewer if the buffer holds fewer),
// newest first, into new tensors: the positions an iteration just
// generated.
func (b *Buffer) Newest(n int) *dataset.Tensors {
	n = min(n, b.n)
	d, a := b.dim, b.actions
	t := &dataset.Tensors{N: n, Dim: d, Actions: a, Columns: dataset.Columns{
		Obs: make([]float32, n*d), Mask: make([]bool, n*a), Policy: make([]float32, n*a),
		Value: make([]float32, n), Outcome: make([]float32, n), Ply: make([]int32, n)}, GameID: make([]int64, n)}
	if b.margins() {
		t.Margin = make([]float32, n)
	}
	for k := 0; k < n; k++ {
		i := b.row(b.n - 1 - k)
		copy(t.Obs[k*d:(k+1)*d], b.rows.Obs[i*d:(i+1)*d])
		copy(t.Mask[k*a:(k+1)*a], b.rows.Mask[i*a:(i+1)*a])
		copy(t.Policy[k*a:(k+1)*a], b.rows.Policy[i*a:(i+1)*a])
		t.Value[k], t.Outcome[k], t.Ply[k], t.GameID[k] = b.rows.Value[i], b.rows.Outcome[i], b.rows.Ply[i], b.game[i]
		if t.Margin != nil {
			t.Margin[k] = b.rows.Margin[i]
		}
	}
	return t
}

// FillTrain draws dst.N rows uniformly, with replacement, into a training
// batch of the nn package (the same row schema): the observation, the mask,
// the visit distribution as the policy target and the outcome as the value
// target, and the margin as the score target when dst has a Margin column
// (the buffer must hold margins then). It panics on an empty buffer.
func (b *Buffer) FillTrain(dst *nn.Batch, rng *rand.Rand) {
	if b.n == 0 {
		panic("train: sampling an empty replay window")
	}
	d, a := b.dim, b.actions
	for k := 0; k < dst.N; k++ {
		i := b.row(rng.IntN(b.n))
		copy(dst.Obs[k*d:(k+1)*d], b.rows.Obs[i*d:(i+1)*d])
		copy(dst.Policy[k*a:(k+1)*a], b.rows.Policy[i*a:(i+1)*a])
		copy(dst.Mask[k*a:(k+1)*a], b.rows.Mask[i*a:(i+1)*a])
		dst.Outcome[k] = b.rows.Outcome[i]
		if dst.Margin != nil {
			dst.Margin[k] = b.rows.Margin[i]
		}
	}
}
