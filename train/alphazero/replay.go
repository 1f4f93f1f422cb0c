package alphazero

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
	"github.com/urim-rl/urim/nn"
)

// Buffer is the replay buffer: a ring of the most recent positions searched
// in self-play, each with its training targets. Its arrays are allocated
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
		i := rng.IntN(b.n)
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

// replayMagic starts a saved buffer; the version follows it.
const (
	replayMagic   = "URIMRPLY"
	replayVersion = 1
)

// Save writes the buffer to path atomically (temporary file, fsync,
// rename): a crash leaves the old file or the new one.
func (b *Buffer) Save(path string) error {
	err := atomicfile.WriteMkdir(path, func(w io.Writer) error {
		le := binary.LittleEndian
		head := []int64{replayVersion, int64(b.dim), int64(b.actions), int64(b.window), int64(b.n), int64(b.next), b.added}
		if _, err := io.WriteString(w, replayMagic); err != nil {
			return err
		}
		for _, x := range []any{head, b.obs, b.policy, b.value, b.root, b.mask, b.ply, b.game} {
			if err := binary.Write(w, le, x); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("train: saving replay buffer: %w", err)
	}
	return nil
}

// LoadBuffer reads a buffer written by [Buffer.Save]. window, when not 0,
// must match the saved one.
func LoadBuffer(path string) (*Buffer, error) {
	f, err := inputfile.Open(path, math.MaxInt64, "a replay buffer")
	if err != nil {
		return nil, fmt.Errorf("train: replay buffer: %w", err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("train: replay buffer %s: %s", path, fmt.Sprintf(format, args...))
	}
	magic := make([]byte, len(replayMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != replayMagic {
		return nil, fail("not a replay buffer file")
	}
	head := make([]int64, 7)
	if err := binary.Read(r, binary.LittleEndian, head); err != nil {
		return nil, fail("truncated header")
	}
	if head[0] != replayVersion {
		return nil, fail("version %d, want %d", head[0], replayVersion)
	}
	dim, actions, window, n, next := head[1], head[2], head[3], head[4], head[5]
	if dim < 1 || dim > 1<<16 || actions < 1 || actions > env.MaxActions || window < 1 || window > 1<<26 ||
		n < 0 || n > window || next < 0 || next >= window || head[6] < n {
		return nil, fail("bad header %v", head)
	}
	// The header's sizes must be the file's before they are allocated.
	row := 4*(dim+actions+2) + int64(binary.Size(env.Mask(0))) + 4 + 8
	if want := int64(len(replayMagic)) + 8*7 + window*row; want != f.Size() {
		return nil, fail("%d bytes, its header (window %d, %d×%d columns) makes %d", f.Size(), window, dim, actions, want)
	}
	b := NewBuffer(int(dim), int(actions), int(window))
	b.n, b.next, b.added = int(n), int(next), head[6]
	for _, x := range []any{b.obs, b.policy, b.value, b.root, b.mask, b.ply, b.game} {
		if err := binary.Read(r, binary.LittleEndian, x); err != nil {
			return nil, fail("truncated data: %v", err)
		}
	}
	if _, err := r.ReadByte(); !errors.Is(err, io.EOF) {
		return nil, fail("trailing bytes")
	}
	if err := b.checkFinite(); err != nil {
		return nil, fail("%v", err)
	}
	return b, nil
}

// Resize returns a buffer with the given window holding the newest rows of b
// (all of them if they fit).
func (b *Buffer) Resize(window int) *Buffer {
	if window == b.window {
		return b
	}
	out := NewBuffer(b.dim, b.actions, window)
	keep := min(b.n, window)
	start := ((b.next-keep)%b.window + b.window) % b.window
	for k := 0; k < keep; k++ {
		i := (start + k) % b.window
		out.Add(&Sample{Obs: b.obs[i*b.dim : (i+1)*b.dim], Policy: b.policy[i*b.actions : (i+1)*b.actions],
			Value: b.value[i], Root: b.root[i], Mask: b.mask[i], Ply: int(b.ply[i]), Game: b.game[i]})
	}
	out.added = b.added
	return out
}

// FillTrain draws b.N rows uniformly, with replacement, into a training
// batch of the nn package (masks as 0/1 columns). It panics on an empty
// buffer.
func (b *Buffer) FillTrain(dst *nn.Batch, rng *rand.Rand) {
	if b.n == 0 {
		panic("train: sampling an empty replay buffer")
	}
	for k := 0; k < dst.N; k++ {
		i := rng.IntN(b.n)
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
