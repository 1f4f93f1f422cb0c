package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
)

// Checkpoint is everything a training run saves: the network (architecture,
// rules, encoding, weights), the optimizer state and the step count.
type Checkpoint struct {
	// Net is the network; its rules, encoding and architecture are saved
	// with it.
	Net *Net
	// Step counts the training steps taken (0 for an untrained network).
	Step int64
	// Optimizer is the optimizer's state, or nil when there is none (an
	// untrained network, or an export of weights only).
	Optimizer *OptimizerState
	// Meta holds whatever else a training loop needs to resume (its
	// resolved config, random state, counters), as strings; nil is empty.
	Meta map[string]string
}

// OptimizerState is the state of an AdamW optimizer.
type OptimizerState struct {
	// Config holds the hyper-parameters.
	Config AdamW
	// T counts the updates applied (for the bias correction).
	T int64
	// M and V are the first and second moments, one per weight, in the
	// order of the network's Params concatenated.
	M, V []float32
}

// The errors of Load and Decode; each comes wrapped with the file name and
// details.
var (
	// ErrNotCheckpoint: the file does not start with the checkpoint magic.
	ErrNotCheckpoint = errors.New("nn: not a urim network checkpoint")
	// ErrVersion: the file has a format version this build cannot read.
	ErrVersion = errors.New("nn: unsupported checkpoint format version")
	// ErrTruncated: the file is shorter than its header says.
	ErrTruncated = errors.New("nn: truncated checkpoint")
	// ErrCorrupt: a checksum fails or the contents are inconsistent.
	ErrCorrupt = errors.New("nn: corrupt checkpoint")
	// ErrMismatch: the checkpoint is for other rules, another encoding or
	// another architecture than the one asked for.
	ErrMismatch = errors.New("nn: checkpoint mismatch")
)

// CheckpointVersion is the format version Save writes; docs/nn.md describes
// it byte by byte. The score head (Arch.Score) did not step it: it is the
// header's arch.score, written only when set, so that a network without one
// has the bytes of every earlier build, and an earlier build refuses a
// network with one at its header (an unknown key) rather than misreading
// its tensors.
const CheckpointVersion = 1

const (
	checkpointMagic = "URIMNNCK"
	preambleSize    = 32
	maxHeaderSize   = 1 << 20
)

// maxCheckpointFile bounds a checkpoint file: the preamble, the largest
// header, and the weights with both AdamW moments (three float32 per
// weight) of the largest network, MaxHiddenWeights in the hidden layers and
// at most 2^24 in the input layer and the heads.
const maxCheckpointFile = preambleSize + maxHeaderSize + 3*4*(MaxHiddenWeights+1<<24) + 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header is the JSON block after the preamble.
type header struct {
	Format       string            `json:"format"`
	Arch         Arch              `json:"arch"`
	Encoding     string            `json:"encoding"`
	InputDim     int               `json:"input_dim"`
	Actions      int               `json:"actions"`
	Rules        env.Rules         `json:"rules"`
	RulesVersion int               `json:"rules_version"`
	Step         int64             `json:"step"`
	Tensors      []tensorEntry     `json:"tensors"`
	Optimizer    *optHeader        `json:"optimizer"`
	Meta         map[string]string `json:"meta,omitempty"`
}

type tensorEntry struct {
	Name   string `json:"name"`
	Shape  []int  `json:"shape"`
	Offset int64  `json:"offset"` // bytes from the start of the payload
}

type optHeader struct {
	Kind        string  `json:"kind"` // "adamw"
	Beta1       float64 `json:"beta1"`
	Beta2       float64 `json:"beta2"`
	Eps         float64 `json:"eps"`
	WeightDecay float64 `json:"weight_decay"`
	T           int64   `json:"t"`
}

// Encode returns the checkpoint file's bytes.
func (c *Checkpoint) Encode() ([]byte, error) {
	n := c.Net
	if n == nil {
		return nil, errors.New("nn: Encode: checkpoint without a network")
	}
	if o := c.Optimizer; o != nil && (len(o.M) != len(n.flat) || len(o.V) != len(n.flat)) {
		return nil, fmt.Errorf("nn: Encode: optimizer moments have %d and %d values for %d weights", len(o.M), len(o.V), len(n.flat))
	}
	h := header{Format: "urim-nn", Arch: n.arch, Encoding: n.enc.String(), InputDim: n.inDim, Actions: n.actions,
		Rules: n.rules, RulesVersion: env.RulesVersion, Step: c.Step, Meta: c.Meta}
	var off int64
	for _, p := range n.params {
		h.Tensors = append(h.Tensors, tensorEntry{Name: p.Name, Shape: p.Shape, Offset: off})
		off += 4 * int64(len(p.W))
	}
	payload := 4 * len(n.flat)
	if o := c.Optimizer; o != nil {
		h.Optimizer = &optHeader{Kind: "adamw", Beta1: o.Config.Beta1, Beta2: o.Config.Beta2, Eps: o.Config.Eps,
			WeightDecay: o.Config.WeightDecay, T: o.T}
		payload *= 3
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("nn: Encode: %w", err)
	}
	buf := make([]byte, preambleSize, preambleSize+len(hj)+payload+4)
	copy(buf, checkpointMagic)
	binary.LittleEndian.PutUint32(buf[8:], CheckpointVersion)
	binary.LittleEndian.PutUint32(buf[12:], uint32(len(hj)))
	binary.LittleEndian.PutUint64(buf[16:], uint64(payload))
	binary.LittleEndian.PutUint32(buf[28:], crc32.Checksum(buf[:28], castagnoli))
	buf = append(buf, hj...)
	for _, p := range n.params {
		buf = appendFloats(buf, p.W)
	}
	if o := c.Optimizer; o != nil {
		buf = appendFloats(buf, o.M)
		buf = appendFloats(buf, o.V)
	}
	return binary.LittleEndian.AppendUint32(buf, crc32.Checksum(buf, castagnoli)), nil
}

func appendFloats(buf []byte, v []float32) []byte {
	for _, f := range v {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
	}
	return buf
}

// Save writes c to path atomically: a temporary file in the same directory,
// synced, then renamed over path. A network (or optimizer state) holding
// NaN or ±Inf is refused (ErrNonFinite) and nothing is written.
func Save(path string, c *Checkpoint) error {
	if c.Net != nil {
		if err := c.checkFinite(); err != nil {
			return fmt.Errorf("nn: not saving %s: %w", path, err)
		}
	}
	data, err := c.Encode()
	if err != nil {
		return err
	}
	return writeFileAtomic(path, data)
}

// writeFileAtomic writes data to path atomically (package atomicfile).
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("nn: %w", err)
	}
	return nil
}

// ReadFile returns the bytes of the checkpoint file at path as Load reads
// them, without decoding them: only a regular file, and no more than a
// checkpoint can hold (package inputfile).
func ReadFile(path string) ([]byte, error) {
	data, err := inputfile.ReadFile(path, maxCheckpointFile, "a checkpoint")
	if err != nil {
		return nil, fmt.Errorf("nn: %w", err)
	}
	return data, nil
}

// Load reads a checkpoint file. A file that is not a checkpoint, has another
// format version, is truncated or corrupt gives an error wrapping
// ErrNotCheckpoint, ErrVersion, ErrTruncated or ErrCorrupt that names the
// file and the problem; a network with NaN or ±Inf weights, ErrNonFinite.
func Load(path string) (*Checkpoint, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := Decode(data)
	if err == nil {
		err = c.checkFinite()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// LoadNet reads the network of a checkpoint file (see Load).
func LoadNet(path string) (*Net, error) {
	c, err := Load(path)
	if err != nil {
		return nil, err
	}
	return c.Net, nil
}

// LoadNetFor reads the network of a checkpoint file and checks that it was
// made for rules and enc (see Checkpoint.Check).
func LoadNetFor(path string, rules env.Rules, enc env.Encoding) (*Net, error) {
	c, err := Load(path)
	if err != nil {
		return nil, err
	}
	if err := c.Check(rules, enc, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c.Net, nil
}

// Check reports, wrapping ErrMismatch, whether the checkpoint's network is
// for other rules (compared field by field, so a custom ruleset that shares
// a preset's name is caught), another encoding, or, when arch is not nil,
// another architecture.
func (c *Checkpoint) Check(rules env.Rules, enc env.Encoding, arch *Arch) error {
	n := c.Net
	if !n.rules.SamePlay(rules) {
		return fmt.Errorf("%w: the network was made for %s", ErrMismatch, n.rules.Mismatch(rules))
	}
	if n.enc != enc {
		return fmt.Errorf("%w: the network reads the %s encoding, not %s", ErrMismatch, n.enc, enc)
	}
	if arch != nil && arch.normalized() != n.arch {
		return fmt.Errorf("%w: the network is %v, not %v", ErrMismatch, n.arch, arch.normalized())
	}
	return nil
}

// Decode parses checkpoint bytes (see Load for the errors). It never panics,
// whatever the input.
func Decode(data []byte) (*Checkpoint, error) {
	if len(data) < len(checkpointMagic) || string(data[:len(checkpointMagic)]) != checkpointMagic {
		if len(data) < len(checkpointMagic) && bytes.HasPrefix([]byte(checkpointMagic), data) && len(data) > 0 {
			return nil, fmt.Errorf("%w: %d bytes, the preamble alone has %d", ErrTruncated, len(data), preambleSize)
		}
		return nil, ErrNotCheckpoint
	}
	if len(data) < 12 {
		return nil, fmt.Errorf("%w: %d bytes, the preamble alone has %d", ErrTruncated, len(data), preambleSize)
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != CheckpointVersion {
		return nil, fmt.Errorf("%w: the file has version %d, this build reads version %d", ErrVersion, v, CheckpointVersion)
	}
	if len(data) < preambleSize {
		return nil, fmt.Errorf("%w: %d bytes, the preamble alone has %d", ErrTruncated, len(data), preambleSize)
	}
	if crc32.Checksum(data[:28], castagnoli) != binary.LittleEndian.Uint32(data[28:]) {
		return nil, fmt.Errorf("%w: the preamble checksum fails", ErrCorrupt)
	}
	hlen := uint64(binary.LittleEndian.Uint32(data[12:]))
	plen := binary.LittleEndian.Uint64(data[16:])
	if hlen > maxHeaderSize || plen > math.MaxInt64/2 {
		return nil, fmt.Errorf("%w: header of %d bytes and payload of %d bytes are implausible", ErrCorrupt, hlen, plen)
	}
	want := uint64(preambleSize) + hlen + plen + 4
	if uint64(len(data)) < want {
		return nil, fmt.Errorf("%w: %d bytes, the preamble announces %d", ErrTruncated, len(data), want)
	}
	if uint64(len(data)) > want {
		return nil, fmt.Errorf("%w: %d bytes of trailing data after the %d the preamble announces", ErrCorrupt, uint64(len(data))-want, want)
	}
	body := data[:want-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(data[want-4:]) {
		return nil, fmt.Errorf("%w: the checksum fails (a changed byte)", ErrCorrupt)
	}
	var h header
	dec := json.NewDecoder(bytes.NewReader(body[preambleSize : preambleSize+hlen]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	return decodeBody(&h, body[preambleSize+hlen:])
}

// decodeBody checks the header against the network it describes and reads
// the payload.
func decodeBody(h *header, payload []byte) (*Checkpoint, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, args...)...)
	}
	if h.Format != "urim-nn" {
		return nil, bad("format %q is not urim-nn", h.Format)
	}
	if h.RulesVersion != env.RulesVersion {
		return nil, fmt.Errorf("%w: the network was trained under rules version %d, this engine plays version %d", ErrMismatch, h.RulesVersion, env.RulesVersion)
	}
	enc, err := env.ParseEncoding(h.Encoding)
	if err != nil {
		return nil, bad("%v", err)
	}
	if err := h.Arch.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	if err := h.Rules.Validate(); err != nil {
		return nil, bad("%v", err)
	}
	// Count the weights before allocating them: the header must not be able
	// to ask for more memory than the file's size justifies.
	game, err := env.NewGame(h.Rules)
	if err != nil {
		return nil, bad("%v", err)
	}
	inDim, actions := enc.Dim(game), h.Rules.PitsPerRow
	if h.InputDim != inDim || h.Actions != actions {
		return nil, bad("input %d and %d actions do not match the rules and encoding (%d, %d)", h.InputDim, h.Actions, inDim, actions)
	}
	var g graph
	specs := g.build(h.Arch.normalized(), inDim, actions)
	count := 0
	for _, s := range specs {
		count += size(s.shape)
	}
	want := 4 * count
	if h.Optimizer != nil {
		want *= 3
	}
	if len(payload) != want {
		return nil, bad("payload of %d bytes, the architecture %v needs %d", len(payload), h.Arch, want)
	}
	if len(h.Tensors) != len(specs) {
		return nil, bad("%d tensors listed, the architecture %v has %d", len(h.Tensors), h.Arch, len(specs))
	}
	n, err := newShape(h.Arch, h.Rules, enc)
	if err != nil {
		return nil, bad("%v", err)
	}
	var off int64
	for i, p := range n.params {
		t := h.Tensors[i]
		if t.Name != p.Name || !slices.Equal(t.Shape, p.Shape) || t.Offset != off {
			return nil, bad("tensor %d is %s %v at byte %d, expected %s %v at byte %d", i, t.Name, t.Shape, t.Offset, p.Name, p.Shape, off)
		}
		readFloats(p.W, payload[off:])
		off += 4 * int64(len(p.W))
	}
	c := &Checkpoint{Net: n, Step: h.Step, Meta: h.Meta}
	if h.Step < 0 {
		return nil, bad("negative step %d", h.Step)
	}
	if o := h.Optimizer; o != nil {
		if o.Kind != "adamw" {
			return nil, bad("unknown optimizer %q", o.Kind)
		}
		cfg := AdamW{Beta1: o.Beta1, Beta2: o.Beta2, Eps: o.Eps, WeightDecay: o.WeightDecay}
		if err := cfg.validate(); err != nil || o.T < 0 {
			return nil, bad("optimizer: %v (t %d)", err, o.T)
		}
		st := &OptimizerState{Config: cfg, T: o.T, M: make([]float32, count), V: make([]float32, count)}
		readFloats(st.M, payload[off:])
		readFloats(st.V, payload[off+4*int64(count):])
		c.Optimizer = st
	}
	return c, nil
}

func readFloats(dst []float32, src []byte) {
	src = src[:4*len(dst)]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}
