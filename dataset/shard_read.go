package dataset

import "fmt"

// ReadTensors reads the tensors of one shard of the dataset in dir, as its
// manifest lists it (info), with the manifest's observation width dim and
// actions, for a reader that keeps its own list of shards (a training run's
// replay window, whose state names each shard with its dataset). The read
// goes through the dataset's one bounded reader of shard files (a regular
// file inside dir, no larger than info.TensorsBytes), and the file must
// have exactly that size and info.TensorsSHA256 before it is decoded, with
// no more rows than info.Positions and then exactly that many.
func ReadTensors(dir string, info ShardInfo, dim, actions int) (*Tensors, error) {
	d := &Dataset{Dir: dir}
	data, err := d.readShardFile(info.Tensors, info.TensorsBytes, "a tensors file")
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if int64(len(data)) != info.TensorsBytes {
		return nil, fmt.Errorf("dataset: %w: %s in %s has %d bytes, the manifest lists %d", ErrChecksum, info.Tensors, dir, len(data), info.TensorsBytes)
	}
	if sum := sha256Hex(data); sum != info.TensorsSHA256 {
		return nil, fmt.Errorf("dataset: %w: %s in %s has SHA-256 %s, the manifest lists %s (the file changed)", ErrChecksum, info.Tensors, dir, sum, info.TensorsSHA256)
	}
	t, err := readNPZ(data, dim, actions, info.Positions)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s in %s: %w", info.Tensors, dir, err)
	}
	if t.N != info.Positions {
		return nil, fmt.Errorf("dataset: %s in %s holds %d rows, the manifest says %d", info.Tensors, dir, t.N, info.Positions)
	}
	return t, nil
}

// ReadShardRecords reads the games of one shard of the dataset in dir, as its
// manifest lists it (info), for the same readers as [ReadTensors], through
// the same checks as [Dataset.LoadRecords]: a regular file inside dir, no
// more bytes and games than info counts, and info's id range.
func ReadShardRecords(dir string, info ShardInfo) ([]Record, error) {
	d := &Dataset{Dir: dir}
	recs, err := d.recordsOf(info)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", dir, err)
	}
	return recs, nil
}
