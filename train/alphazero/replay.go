package alphazero

import (
	"math/rand/v2"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Buffer is the replay window in memory: a ring of the most recent
// positions searched in self-play, each with its training targets, drawn
// from the window's dataset shards (window.go). Its arrays are allocated
// once, at full size; adding and sampling allocate nothing.
type Buffer struct {
	dim, actions, window int

	obs    []float32 // window×dim observations, seen by the player to move
	policy []float32 // window×actions visit distributions
	value  []float32 // final outcome for the player to move
	root   []float32 // root value of the search, for the player to move
	mask   []env.Mask
	ply    []int32
	game   []int64

	n, next int   // rows filled; the row the next Add writes
	added   int64 // rows ever added
	checked int64 // the value of added when checkFinite last passed
}

// NewBuffer returns an empty buffer of window rows of dim observation
// columns and actions policy columns.
func NewBuffer(dim, actions, window int) *Buffer {
	return &Buffer{dim: dim, actions: actions, window: window,
		obs: make([]float32, window*dim), policy: make([]float32, window*actions),
		value: make([]float32, window), root: make([]float32, window),
		mask: make([]env.Mask, window), ply: make([]int32, window), game: make([]int64, window)}
}

// Len returns the number of positions held.
func (b *Buffer) Len() int { return b.n }

// Added returns the number of positions ever added.
func (b *Buffer) Added() int64 { return b.added }

// Sample is one searched position with its targets.
type Sample struct {
	Obs    []float32 // the observation row (Dim columns)
	Mask   env.Mask  // legal actions
	Policy []float32 // the search's visit distribution (Actions columns)
	Value  float32   // the game's final outcome for the player to move
	Root   float32   // the search's root value for the player to move
	Ply    int       // ply of the position in its game
	Game   int64     // the game's id within the run
}

// Add appends s, dropping the oldest position when the buffer is full.
func (b *Buffer) Add(s *Sample) {
	i := b.next
	copy(b.obs[i*b.dim:(i+1)*b.dim], s.Obs)
	copy(b.policy[i*b.actions:(i+1)*b.actions], s.Policy)
	b.value[i], b.root[i], b.mask[i] = s.Value, s.Root, s.Mask
	b.ply[i], b.game[i] = int32(s.Ply), s.Game
	b.next = (b.next + 1) % b.window
	b.n = min(b.n+1, b.window)
	b.added++
}

// Batch holds a training batch: rows drawn from the buffer.
type Batch struct {
	Obs    []float32 // n×dim
	Policy []float32 // n×actions
	Value  []float32 // n
	Mask   []env.Mask
}

// NewBatch allocates a batch of n rows for b.
func (b *Buffer) NewBatch(n int) *Batch {
	return &Batch{Obs: make([]float32, n*b.dim), Policy: make([]float32, n*b.actions),
		Value: make([]float32, n), Mask: make([]env.Mask, n)}
}

// Fill draws len(dst.Value) rows uniformly, with replacement, from the
// buffer into dst. It panics on an empty buffer.
func (b *Buffer) Fill(dst *Batch, rng *rand.Rand) {
	if b.n == 0 {
		panic("train: sampling an empty replay buffer")
	}
	for k := range dst.Value {
		i := b.row(rng.IntN(b.n))
		copy(dst.Obs[k*b.dim:(k+1)*b.dim], b.obs[i*b.dim:(i+1)*b.dim])
		copy(dst.Policy[k*b.actions:(k+1)*b.actions], b.policy[i*b.actions:(i+1)*b.actions])
		dst.Value[k], dst.Mask[k] = b.value[i], b.mask[i]
	}
}

// Newest copies the most recent n rows (fewer if the buffer holds fewer)
// into a new batch: the positions an iteration just generated.
func (b *Buffer) Newest(n int) *Batch {
	n = min(n, b.n)
	dst := b.NewBatch(n)
	for k := 0; k < n; k++ {
		i := ((b.next-1-k)%b.window + b.window) % b.window
		copy(dst.Obs[k*b.dim:(k+1)*b.dim], b.obs[i*b.dim:(i+1)*b.dim])
		copy(dst.Policy[k*b.actions:(k+1)*b.actions], b.policy[i*b.actions:(i+1)*b.actions])
		dst.Value[k], dst.Mask[k] = b.value[i], b.mask[i]
	}
	return dst
}

// addRows appends the rows of t that have a policy target, in order: the
// search's visit distribution as the policy, the outcome as the value
// target, the search value as the root value. It returns how many.
func (b *Buffer) addRows(t *dataset.Tensors) int {
	n := 0
	var smp Sample
	for i := 0; i < t.N; i++ {
		if !t.HasPolicy[i] {
			continue
		}
		var m env.Mask
		for a, ok := range t.Mask[i*t.Actions : (i+1)*t.Actions] {
			if ok {
				m |= 1 << a
			}
		}
		smp = Sample{Obs: t.Obs[i*t.Dim : (i+1)*t.Dim], Policy: t.Policy[i*t.Actions : (i+1)*t.Actions], Mask: m,
			Value: t.Outcome[i], Root: t.Value[i], Ply: int(t.Ply[i]), Game: t.GameID[i]}
		b.Add(&smp)
		n++
	}
	return n
}

// row returns the ring index of the k-th oldest row held: sampling by age
// rather than by ring slot makes the draws depend only on the rows held and
// their order, so a window rebuilt from its shards samples as the original.
func (b *Buffer) row(k int) int { return (b.next - b.n + k + b.window) % b.window }

// FillTrain draws b.N rows uniformly, with replacement, into a training
// batch of the nn package (masks as 0/1 columns). It panics on an empty
// buffer.
func (b *Buffer) FillTrain(dst *nn.Batch, rng *rand.Rand) {
	if b.n == 0 {
		panic("train: sampling an empty replay buffer")
	}
	for k := 0; k < dst.N; k++ {
		i := b.row(rng.IntN(b.n))
		copy(dst.Obs[k*b.dim:(k+1)*b.dim], b.obs[i*b.dim:(i+1)*b.dim])
		copy(dst.Policy[k*b.actions:(k+1)*b.actions], b.policy[i*b.actions:(i+1)*b.actions])
		dst.Value[k] = b.value[i]
		m := dst.Mask[k*b.actions : (k+1)*b.actions]
		for a := range m {
			m[a] = 0
			if b.mask[i].Has(a) {
				m[a] = 1
			}
		}
	}
}
