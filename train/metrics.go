package train

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/inputfile"
)

// rating is the evaluation's part of an iteration's metrics row. Its
// values are NaN (an empty cell) in iterations without evaluation.
type rating struct {
	// scores holds the score against each opponent, in config order; elo
	// and its 95% interval are on the scale of random = 0.
	scores      []float64
	elo, lo, hi float64
	// tablebase holds the tablebase accuracy (the tb_* columns, in the
	// order of tbColumns) when the run has evaluation.tablebase, else nil.
	tablebase []float64
	// best is the iteration of the best network after this one.
	best int
}

// newRating returns an iteration's rating before any evaluation: all NaN.
func (s *Session) newRating() *rating {
	ev := &rating{scores: nans(len(s.Config.Evaluation.Opponents)), elo: math.NaN(), lo: math.NaN(), hi: math.NaN()}
	if s.endgames != nil {
		ev.tablebase = nans(len(tbColumns))
	}
	return ev
}

var nonWord = regexp.MustCompile(`[^A-Za-z0-9]+`)

// scoreColumn names the score column of an opponent: score_mcts_sims_200.
func scoreColumn(spec string) string {
	return "score_" + strings.Trim(nonWord.ReplaceAllString(spec, "_"), "_")
}

// header returns the columns of the run's metrics.csv: iteration,
// elapsed_s and games, the algorithm's columns, a score column per
// opponent, the Elo with its interval and best, and the tb_* columns of a
// run with evaluation.tablebase.
func (s *Session) header() []string {
	if s.head != nil {
		return s.head
	}
	h := []string{"iteration", "elapsed_s", "games"}
	h = append(h, s.alg.Columns()...)
	for _, o := range s.Config.Evaluation.Opponents {
		h = append(h, scoreColumn(o))
	}
	h = append(h, "elo", "elo_lo95", "elo_hi95", "best")
	if s.endgames != nil {
		h = append(h, tbColumns...)
	}
	s.head = h
	return h
}

// Cell formats a metric for metrics.csv: six significant digits, NaN as
// an empty cell.
func Cell(x float64) string { return cell(x) }

func cell(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// row is iteration it's metrics row.
func (s *Session) row(it int, elapsed float64, res *Iteration, ev *rating) []string {
	r := []string{strconv.Itoa(it), cell(elapsed), strconv.Itoa(res.Games)}
	r = append(r, res.Cells...)
	for _, x := range ev.scores {
		r = append(r, cell(x))
	}
	r = append(r, cell(ev.elo), cell(ev.lo), cell(ev.hi), strconv.Itoa(ev.best))
	for _, x := range ev.tablebase {
		r = append(r, cell(x))
	}
	return r
}

// Table is metrics.csv read back: its header and rows of cells.
type Table struct {
	Header []string
	Rows   [][]string
}

// maxMetricsFile bounds a metrics.csv (a row of a few hundred bytes an
// iteration).
const maxMetricsFile = 1 << 30

// ReadMetrics reads a metrics.csv; a missing file is an empty table.
func ReadMetrics(path string) (*Table, error) {
	f, err := inputfile.Open(path, maxMetricsFile, "a metrics.csv")
	if errors.Is(err, fs.ErrNotExist) {
		return &Table{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	defer f.Close()
	return ParseMetrics(f, path)
}

// ParseMetrics reads a metrics.csv from r (a file its caller opened with
// inputfile), named path in errors.
func ParseMetrics(r io.Reader, path string) (*Table, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
	}
	if len(recs) == 0 {
		return &Table{}, nil
	}
	return &Table{Header: recs[0], Rows: recs[1:]}, nil
}

// Column returns the values of the named column as floats (NaN for an
// empty cell), or nil if there is no such column.
func (t *Table) Column(name string) []float64 {
	k := -1
	for i, h := range t.Header {
		if h == name {
			k = i
		}
	}
	if k < 0 {
		return nil
	}
	out := make([]float64, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = math.NaN()
		if k < len(r) && r[k] != "" {
			if x, err := strconv.ParseFloat(r[k], 64); err == nil {
				out[i] = x
			}
		}
	}
	return out
}

// writeMetrics rewrites metrics.csv atomically with the rows of t whose
// iteration is at most upTo, plus extra rows.
func writeMetrics(path string, header []string, t *Table, upTo int, extra ...[]string) error {
	return atomicfile.WriteMkdir(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.Write(header); err != nil {
			return err
		}
		for _, r := range t.Rows {
			if len(r) == 0 {
				continue
			}
			it, err := strconv.Atoi(r[0])
			if err != nil || it > upTo {
				continue
			}
			if err := cw.Write(r); err != nil {
				return err
			}
		}
		for _, r := range extra {
			if err := cw.Write(r); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}

// checkResumedMetrics compares the metrics.csv of a run being resumed with
// what the run has committed (done iterations, columns head). Columns other
// than head are an error, since the rows would land under the wrong names.
// Rows missing for committed iterations (a file deleted or cut by hand)
// cannot be rebuilt: the resume goes on and the returned warning names them.
func checkResumedMetrics(t *Table, head []string, done int) (warning string, err error) {
	if len(t.Rows) > 0 && !slices.Equal(t.Header, head) {
		return "", fmt.Errorf("its columns (%d: %s …) are not this run's (%d: %s …); move it aside to resume without its rows",
			len(t.Header), strings.Join(t.Header[:min(4, len(t.Header))], ","), len(head), strings.Join(head[:min(4, len(head))], ","))
	}
	have := make([]bool, done+1)
	for _, r := range t.Rows {
		if len(r) == 0 {
			continue
		}
		if it, err := strconv.Atoi(r[0]); err == nil && it >= 1 && it <= done {
			have[it] = true
		}
	}
	var missing []string
	for it := 1; it <= done; {
		if have[it] {
			it++
			continue
		}
		end := it
		for end+1 <= done && !have[end+1] {
			end++
		}
		if end == it {
			missing = append(missing, strconv.Itoa(it))
		} else {
			missing = append(missing, fmt.Sprintf("%d–%d", it, end))
		}
		it = end + 1
	}
	if len(missing) == 0 {
		return "", nil
	}
	return fmt.Sprintf("no rows for iterations %s of the %d committed (deleted or edited by hand?); they are lost, and the new rows follow the rest",
		strings.Join(missing, ", "), done), nil
}
