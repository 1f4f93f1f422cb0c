package dataset

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// MaxPacked bounds what Unpack decompresses: the arrays of a packed shard.
const MaxPacked = 256 << 20

// Pack encodes games as one shard held in memory, to send between
// processes: the shard's two files of a dataset directory, the .npz
// archive of the games' rows (ArrayNames) and their records as JSON lines,
// framed as the archive's length (a uvarint), the archive, then the lines.
func Pack(games []Game, dim, actions int) ([]byte, error) {
	// The arrays are sized once: a shard of many games grows no slice.
	rows := 0
	for i := range games {
		rows += len(games[i].Value) // a hint: the rows are checked below
	}
	t := &Tensors{Dim: dim, Actions: actions, Columns: Columns{
		Obs: make([]float32, 0, rows*dim), Mask: make([]bool, 0, rows*actions), Policy: make([]float32, 0, rows*actions),
		HasPolicy: make([]bool, 0, rows), Value: make([]float32, 0, rows), Outcome: make([]float32, 0, rows),
		Action: make([]int32, 0, rows), Ply: make([]int32, 0, rows)}, GameID: make([]int64, 0, rows)}
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	for i := range games {
		g := &games[i]
		if len(g.Obs) != g.Record.Positions*dim || len(g.Mask) != g.Record.Positions*actions {
			return nil, fmt.Errorf("dataset: pack: game %d has %d rows of %d and %d values, its record says %d positions",
				g.Record.ID, len(g.Obs), dim, len(g.Mask), g.Record.Positions)
		}
		t.appendGame(g)
		if err := enc.Encode(&g.Record); err != nil {
			return nil, fmt.Errorf("dataset: pack: %w", err)
		}
	}
	var npz bytes.Buffer
	if err := t.WriteNPZ(&npz); err != nil {
		return nil, fmt.Errorf("dataset: pack: %w", err)
	}
	out := binary.AppendUvarint(make([]byte, 0, npz.Len()+lines.Len()+10), uint64(npz.Len()))
	out = append(out, npz.Bytes()...)
	return append(out, lines.Bytes()...), nil
}

// Unpack decodes what Pack encoded, for an observation size dim and
// actions actions, checking that the records and the rows agree (each
// game's rows in order, as many as its record says). It never
// decompresses more than MaxPacked bytes.
func Unpack(data []byte, dim, actions int) ([]Game, error) {
	_, _, games, err := unpack(data, dim, actions)
	return games, err
}

// unpack is Unpack, also returning the shard's tensors and records.
func unpack(data []byte, dim, actions int) (*Tensors, []Record, []Game, error) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k) {
		return nil, nil, nil, errors.New("dataset: unpack: not a packed shard (bad frame)")
	}
	npz, lines := data[k:k+int(n)], data[k+int(n):]
	zr, err := zip.NewReader(bytes.NewReader(npz), int64(len(npz)))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("dataset: unpack: not a .npz archive: %w", err)
	}
	var size uint64
	for _, f := range zr.File {
		size += f.UncompressedSize64
	}
	if size > MaxPacked {
		return nil, nil, nil, fmt.Errorf("dataset: unpack: %d bytes of arrays, more than %d", size, MaxPacked)
	}
	t, err := ReadNPZ(npz, dim, actions)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("dataset: unpack: %w", err)
	}
	var recs []Record
	sc := bufio.NewScanner(bytes.NewReader(lines))
	sc.Buffer(nil, len(lines)+1)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, nil, nil, fmt.Errorf("dataset: unpack: record %d: %w", len(recs)+1, err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, nil, fmt.Errorf("dataset: unpack: %w", err)
	}
	games := make([]Game, 0, len(recs))
	row := 0
	for _, r := range recs {
		p := r.Positions
		if p < 0 || p > t.N-row {
			return nil, nil, nil, fmt.Errorf("dataset: unpack: game %d has %d positions, %d rows are left", r.ID, p, t.N-row)
		}
		if slices.ContainsFunc(t.GameID[row:row+p], func(id int64) bool { return id != r.ID }) {
			return nil, nil, nil, fmt.Errorf("dataset: unpack: the rows of game %d carry another game_id", r.ID)
		}
		a, b := row*dim, (row+p)*dim
		m, q := row*actions, (row+p)*actions
		games = append(games, Game{Record: r, Columns: Columns{Obs: t.Obs[a:b:b], Mask: t.Mask[m:q:q], Policy: t.Policy[m:q:q],
			HasPolicy: t.HasPolicy[row : row+p : row+p], Value: t.Value[row : row+p : row+p],
			Outcome: t.Outcome[row : row+p : row+p], Action: t.Action[row : row+p : row+p], Ply: t.Ply[row : row+p : row+p]}})
		row += p
	}
	if row != t.N {
		return nil, nil, nil, fmt.Errorf("dataset: unpack: %d rows, the records account for %d", t.N, row)
	}
	return t, recs, games, nil
}
