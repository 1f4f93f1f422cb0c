package tablebase

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
)

// FormatVersion is the version of the file layout a table is written in;
// a reader reads it and version 1 (no stored analysis of the moves, see
// [Table.HasStoredMoves]) and refuses any other.
const FormatVersion = 2

// magic opens every table file.
var magic = [8]byte{'U', 'R', 'I', 'M', 'T', 'B', '\r', '\n'}

// The errors a file can fail with; each message names the file and the
// problem.
var (
	// ErrNotTable: the file does not start like a table file.
	ErrNotTable = errors.New("tablebase: not a table file")
	// ErrVersion: the file has another format version.
	ErrVersion = errors.New("tablebase: unsupported format version")
	// ErrTruncated: the file is shorter than its header says.
	ErrTruncated = errors.New("tablebase: truncated file")
	// ErrCorrupt: the header is unreadable or the checksum does not match.
	ErrCorrupt = errors.New("tablebase: corrupt file")
	// ErrMismatch: the table was built for other rules.
	ErrMismatch = errors.New("tablebase: rules mismatch")
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// header is the JSON part of the file.
type header struct {
	Rules        env.Rules `json:"rules"`
	RulesText    string    `json:"rules_text"`
	RulesVersion int       `json:"rules_version"`
	MaxSeeds     int       `json:"max_seeds"`
	Positions    uint64    `json:"positions"`
	ValueBytes   int       `json:"value_bytes"`
	RankBytes    int       `json:"rank_bytes"`
	PayloadBytes uint64    `json:"payload_bytes"`
	// MoveBytes (format 2) is the bytes a position's stored best moves
	// take after the ranks: 0 (none) or 1.
	MoveBytes int `json:"move_bytes"`
}

// maxHeader bounds the JSON header a reader accepts.
const maxHeader = 1 << 16

// Layout, all integers little-endian:
//
//	magic [8]byte | version uint32 | header length uint32 | header JSON |
//	payload | CRC-32C (Castagnoli) of everything before it, uint32

// writeTo writes the file form of t to w.
func (t *Table) writeTo(w io.Writer) error {
	h := header{Rules: t.rules, RulesText: t.rules.String(), RulesVersion: env.RulesVersion, MaxSeeds: t.k,
		Positions: t.positions(), ValueBytes: t.vw, RankBytes: t.rw, PayloadBytes: uint64(t.Size())}
	if t.analysis != nil {
		h.MoveBytes = movesBytes
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return err
	}
	head := append(magic[:], 0, 0, 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(head[8:], FormatVersion)
	binary.LittleEndian.PutUint32(head[12:], uint32(len(hj)))
	sum := crc32.New(castagnoli)
	mw := io.MultiWriter(w, sum)
	for _, part := range [][]byte{head, hj, t.data, t.analysis} {
		if _, err := mw.Write(part); err != nil {
			return err
		}
	}
	_, err = w.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32()))
	return err
}

// MarshalBinary returns the file form of t.
func (t *Table) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	if err := t.writeTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Save writes t to path atomically: a temporary file in the same directory,
// synced, then renamed over path.
func (t *Table) Save(path string) error {
	if err := atomicfile.Write(path, t.writeTo); err != nil {
		return fmt.Errorf("tablebase: %w", err)
	}
	return nil
}

// Load reads a table file and checks it whole: format, header, sizes and
// checksum. Only a regular file is read (package inputfile), and no more of
// it than its header, checked first, says the table takes.
func Load(path string) (*Table, error) {
	f, err := inputfile.Open(path, math.MaxInt64, "a table")
	if err != nil {
		return nil, fmt.Errorf("tablebase: %w", err)
	}
	head := make([]byte, min(f.Size(), 16+maxHeader))
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("tablebase: %w", err)
	}
	limit := int64(len(head))
	if _, _, want, err := parseHeader(head); err == nil {
		limit = int64(min(want, 1<<62))
	} else if !errors.Is(err, ErrTruncated) || len(head) < 16 {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := inputfile.ReadFile(path, limit, "the table its header describes")
	if errors.Is(err, inputfile.ErrTooLarge) {
		return nil, fmt.Errorf("%s: %w: longer than the %d bytes its header promises", path, ErrCorrupt, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("tablebase: %w", err)
	}
	t, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// LoadFor is Load that also demands the table be built for rules r.
func LoadFor(path string, r env.Rules) (*Table, error) {
	t, err := Load(path)
	if err != nil {
		return nil, err
	}
	if d := sameRules(t.rules, r); d != "" {
		return nil, fmt.Errorf("%s: %w: built for %s (the rules asked for)", path, ErrMismatch, t.rules.Mismatch(r))
	}
	return t, nil
}

// Parse reads a table from its file form. The table keeps b as its payload.
func Parse(b []byte) (*Table, error) {
	t, hl, want, err := parseHeader(b)
	if err != nil {
		return nil, err
	}
	switch {
	case uint64(len(b)) < want:
		return nil, fmt.Errorf("%w: %d bytes, the header promises %d", ErrTruncated, len(b), want)
	case uint64(len(b)) > want:
		return nil, fmt.Errorf("%w: %d bytes after the checksum", ErrCorrupt, uint64(len(b))-want)
	}
	body := b[:want-4]
	if got, sum := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(b[want-4:]); got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, the file says %08x", ErrCorrupt, got, sum)
	}
	t.data = b[16+hl : 16+hl+t.payloadSize()]
	if t.analysis = b[16+hl+t.payloadSize() : want-4]; len(t.analysis) == 0 {
		t.analysis = nil
	} else if g := validMasks(t.analysis, t.r.p); g >= 0 {
		return nil, fmt.Errorf("%w: position %d: stored best moves %#x beyond the %d actions", ErrCorrupt, g, t.analysis[g], t.r.p)
	}
	t.index()
	for n := 0; n <= t.k; n++ {
		maxCode := pairCode(n, n) // no bound exceeds the seeds on the board
		for g := t.offset[n]; g < t.offset[n+1]; g++ {
			code := int(t.data[g])
			if t.vw == 2 {
				code = int(t.data[2*g]) | int(t.data[2*g+1])<<8
			}
			if code > maxCode {
				return nil, fmt.Errorf("%w: position %d (%d seeds) holds pair code %d (largest %d)", ErrCorrupt, g, n, code, maxCode)
			}
		}
	}
	return t, nil
}

// parseHeader checks the fixed header and the JSON header at the start of b
// (b may hold only them) and returns the table they describe, without its
// payload, the JSON header's length and the size of the whole file.
func parseHeader(b []byte) (t *Table, hl, want uint64, err error) {
	if len(b) == 0 {
		return nil, 0, 0, fmt.Errorf("%w: the file is empty", ErrNotTable)
	}
	if len(b) < 16 {
		if len(b) >= 8 && bytes.Equal(b[:8], magic[:]) || bytes.HasPrefix(magic[:], b) {
			return nil, 0, 0, fmt.Errorf("%w: %d bytes, shorter than the fixed header", ErrTruncated, len(b))
		}
		return nil, 0, 0, ErrNotTable
	}
	if !bytes.Equal(b[:8], magic[:]) {
		return nil, 0, 0, ErrNotTable
	}
	v := binary.LittleEndian.Uint32(b[8:12])
	if v != 1 && v != FormatVersion {
		return nil, 0, 0, fmt.Errorf("%w %d (this build reads 1 and %d)", ErrVersion, v, FormatVersion)
	}
	hl = uint64(binary.LittleEndian.Uint32(b[12:16]))
	if hl > maxHeader {
		return nil, 0, 0, fmt.Errorf("%w: header length %d over the limit %d", ErrCorrupt, hl, maxHeader)
	}
	if uint64(len(b)) < 16+hl {
		return nil, 0, 0, fmt.Errorf("%w: %d bytes, the header alone needs %d", ErrTruncated, len(b), 16+hl)
	}
	var h header
	dec := json.NewDecoder(bytes.NewReader(b[16 : 16+hl]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, 0, 0, fmt.Errorf("%w: header: %v", ErrCorrupt, err)
	}
	c, err := compile(h.Rules)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%w: header rules: %v", ErrCorrupt, err)
	}
	if h.RulesVersion != env.RulesVersion {
		return nil, 0, 0, fmt.Errorf("%w: built with rules version %d, the engine plays version %d", ErrMismatch, h.RulesVersion, env.RulesVersion)
	}
	if h.MaxSeeds < 0 || h.MaxSeeds > MaxSeeds || h.MaxSeeds > h.Rules.Total() {
		return nil, 0, 0, fmt.Errorf("%w: header max_seeds %d out of range", ErrCorrupt, h.MaxSeeds)
	}
	if h.RankBytes != 1 && h.RankBytes != 2 {
		return nil, 0, 0, fmt.Errorf("%w: header rank_bytes %d (want 1 or 2)", ErrCorrupt, h.RankBytes)
	}
	if h.MoveBytes != 0 && (v == 1 || h.MoveBytes != movesBytes) {
		return nil, 0, 0, fmt.Errorf("%w: header move_bytes %d in format %d (want 0, or %d from format 2)", ErrCorrupt, h.MoveBytes, v, movesBytes)
	}
	t = newTable(h.Rules, c, h.MaxSeeds, h.RankBytes)
	if h.Positions != t.positions() || h.ValueBytes != t.vw || h.PayloadBytes != t.payloadSize()+uint64(h.MoveBytes)*t.positions() {
		return nil, 0, 0, fmt.Errorf("%w: header sizes (positions %d, value bytes %d, rank bytes %d, move bytes %d, payload %d) do not fit K=%d under %s",
			ErrCorrupt, h.Positions, h.ValueBytes, h.RankBytes, h.MoveBytes, h.PayloadBytes, h.MaxSeeds, h.Rules.Name)
	}
	return t, hl, 16 + hl + h.PayloadBytes + 4, nil
}
