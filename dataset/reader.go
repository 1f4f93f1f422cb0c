package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/inputfile"
)

// maxManifest bounds the size of a manifest file.
const maxManifest = 64 << 20

// notDirError is the error of a file given as a dataset directory; it
// counts as a missing dataset (fs.ErrNotExist).
type notDirError string

func (e notDirError) Error() string {
	return fmt.Sprintf("dataset: %s is not a directory: a dataset is a directory holding %s", string(e), ManifestName)
}

func (e notDirError) Is(target error) bool { return target == fs.ErrNotExist }

// ReadManifest reads dir's manifest.json and checks its format, schema
// version and internal consistency. A missing manifest is an error wrapping
// fs.ErrNotExist.
func ReadManifest(dir string) (*Manifest, error) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return nil, notDirError(dir)
	}
	path := filepath.Join(dir, ManifestName)
	data, err := inputfile.ReadFile(path, maxManifest, "a dataset manifest")
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	return parseManifestAt(data, path)
}

// parseManifestAt is ParseManifest for the manifest read from path.
func parseManifestAt(data []byte, path string) (*Manifest, error) {
	m, err := ParseManifest(data)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	return m, nil
}

// ParseManifest decodes and checks a manifest from its bytes.
func ParseManifest(data []byte) (*Manifest, error) {
	if len(data) > maxManifest {
		return nil, fmt.Errorf("%d bytes is too large for a manifest", len(data))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a dataset manifest: %w", err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("format %q, want %q", m.Format, Format)
	}
	if m.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("schema version %d, this program reads version %d", m.SchemaVersion, SchemaVersion)
	}
	g, err := env.NewGame(m.Rules)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	enc, err := env.ParseEncoding(m.Encoding)
	if err != nil {
		return nil, err
	}
	if _, err := env.ParseRewardKind(m.Outcome); err != nil {
		return nil, fmt.Errorf("outcome: %w", err)
	}
	if m.ObsDim != enc.Dim(g) || m.Actions != g.PitsPerRow() {
		return nil, fmt.Errorf("obs_dim %d and actions %d, the rules and encoding give %d and %d", m.ObsDim, m.Actions, enc.Dim(g), g.PitsPerRow())
	}
	games, positions := 0, 0
	seen := map[string]bool{}
	for i, s := range m.Shards {
		for _, name := range []string{s.Tensors, s.Games} {
			if name == "" || name != filepath.Base(name) || strings.HasPrefix(name, ".") || seen[name] {
				return nil, fmt.Errorf("shard %d: bad or repeated file name %q", i, name)
			}
			seen[name] = true
		}
		if s.NumGames < 0 || s.Positions < 0 || s.TensorsBytes < 0 || s.GamesBytes < 0 {
			return nil, fmt.Errorf("shard %d: negative counts", i)
		}
		if s.NumGames > MaxShardPositions || s.Positions > MaxShardPositions {
			return nil, fmt.Errorf("shard %d: %d games and %d positions, over the limit of %d a shard", i, s.NumGames, s.Positions, MaxShardPositions)
		}
		if s.NumGames > 0 && s.FirstID > s.LastID {
			return nil, fmt.Errorf("shard %d: first_id %d is after last_id %d", i, s.FirstID, s.LastID)
		}
		games += s.NumGames
		positions += s.Positions
	}
	if games != m.Games || positions != m.Positions {
		return nil, fmt.Errorf("counts %d games, %d positions, the shards add up to %d and %d", m.Games, m.Positions, games, positions)
	}
	return &m, nil
}

// Dataset is an opened dataset directory.
type Dataset struct {
	Dir      string
	Manifest *Manifest
	root     *os.Root // OpenIn's: every file is opened inside it
	game     *env.Game
	enc      env.Encoding
	reward   env.RewardKind
}

// Open reads the manifest of the dataset in dir.
func Open(dir string) (*Dataset, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	return newDataset(dir, m), nil
}

// newDataset is the dataset of the checked manifest m, in dir.
func newDataset(dir string, m *Manifest) *Dataset {
	g, _ := env.NewGame(m.Rules)
	enc, _ := env.ParseEncoding(m.Encoding)
	reward, _ := env.ParseRewardKind(m.Outcome)
	return &Dataset{Dir: dir, Manifest: m, game: g, enc: enc, reward: reward}
}

// OpenIn reads the manifest of the dataset whose directory is root, and
// reads its files (LoadShard, LoadRecords) inside root only: a symlink out
// of it is refused, and the check and the open are one step (os.Root). The
// caller keeps root open while it uses the dataset.
func OpenIn(root *os.Root) (*Dataset, error) {
	data, err := inputfile.ReadFileIn(root, ManifestName, maxManifest, "a dataset manifest")
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", root.Name(), err)
	}
	m, err := parseManifestAt(data, filepath.Join(root.Name(), ManifestName))
	if err != nil {
		return nil, err
	}
	d := newDataset(root.Name(), m)
	d.root = root
	return d, nil
}

// Game returns the compiled rules of the dataset.
func (d *Dataset) Game() *env.Game { return d.game }

// Shard is one shard loaded in memory: its games and its tensors.
type Shard struct {
	Info    ShardInfo
	Records []Record
	Tensors *Tensors
}

// LoadShard reads shard i: its records and tensors, checked against the
// manifest (array set, dtypes, shapes, row and game counts) but not
// replayed (see [Verify]) and without checksums.
func (d *Dataset) LoadShard(i int) (*Shard, error) {
	info := d.Manifest.Shards[i]
	sh := &Shard{Info: info}
	var err error
	if sh.Records, err = d.loadRecords(i); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if sh.Tensors, err = d.loadTensors(i); err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if err := sh.checkCounts(); err != nil {
		return nil, fmt.Errorf("dataset: shard %d: %w", i, err)
	}
	return sh, nil
}

// checkCounts checks that the records, the tensors and the manifest agree on
// the games and rows of the shard.
func (sh *Shard) checkCounts() error {
	if len(sh.Records) != sh.Info.NumGames {
		return fmt.Errorf("%s holds %d games, the manifest says %d", sh.Info.Games, len(sh.Records), sh.Info.NumGames)
	}
	if sh.Tensors.N != sh.Info.Positions {
		return fmt.Errorf("%s holds %d rows, the manifest says %d", sh.Info.Tensors, sh.Tensors.N, sh.Info.Positions)
	}
	rows := 0
	for _, r := range sh.Records {
		if r.Positions < 0 {
			return fmt.Errorf("%s: game %d: negative positions", sh.Info.Games, r.ID)
		}
		rows += r.Positions
	}
	if rows != sh.Tensors.N {
		return fmt.Errorf("%s: the games have %d positions, %s has %d rows", sh.Info.Games, rows, sh.Info.Tensors, sh.Tensors.N)
	}
	return nil
}

// GameRows returns the rows of the tensors that belong to each record, in
// order: record j's rows are [start[j], start[j]+Positions).
func (sh *Shard) GameRows() []int {
	start := make([]int, len(sh.Records))
	row := 0
	for j, r := range sh.Records {
		start[j] = row
		row += r.Positions
	}
	return start
}

// Games splits the shard into its games, each with its own rows; the
// arrays alias the shard's.
func (sh *Shard) Games() []Game {
	t := sh.Tensors
	games := make([]Game, len(sh.Records))
	starts := sh.GameRows()
	for j, r := range sh.Records {
		lo, hi := starts[j], starts[j]+r.Positions
		games[j] = Game{Record: r, Columns: Columns{
			Obs: t.Obs[lo*t.Dim : hi*t.Dim : hi*t.Dim], Mask: t.Mask[lo*t.Actions : hi*t.Actions : hi*t.Actions],
			Policy: t.Policy[lo*t.Actions : hi*t.Actions : hi*t.Actions], HasPolicy: t.HasPolicy[lo:hi:hi],
			Value: t.Value[lo:hi:hi], Outcome: t.Outcome[lo:hi:hi], Action: t.Action[lo:hi:hi], Ply: t.Ply[lo:hi:hi]}}
	}
	return games
}
