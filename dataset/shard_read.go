package dataset

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ReadTensors reads the tensors of one shard of the dataset in dir, as its
// manifest lists it (info) with the manifest's observation width dim and
// actions. The read is bounded and checked: a file larger or smaller than
// info.TensorsBytes, or whose SHA-256 is not info.TensorsSHA256, is refused
// before it is decoded, as is one whose rows are not info.Positions.
func ReadTensors(dir string, info ShardInfo, dim, actions int) (*Tensors, error) {
	path := filepath.Join(dir, info.Tensors)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	if info.TensorsBytes < 0 || info.TensorsBytes > maxShardBytes {
		return nil, fmt.Errorf("dataset: %s: the manifest lists %d bytes (at most %d)", path, info.TensorsBytes, int64(maxShardBytes))
	}
	data, err := io.ReadAll(io.LimitReader(f, info.TensorsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if int64(len(data)) != info.TensorsBytes {
		return nil, fmt.Errorf("dataset: %s: %d bytes or more, the manifest lists %d", path, len(data), info.TensorsBytes)
	}
	if sum := sha256Hex(data); sum != info.TensorsSHA256 {
		return nil, fmt.Errorf("dataset: %s: SHA-256 %s, the manifest lists %s (the file changed)", path, sum, info.TensorsSHA256)
	}
	t, err := ReadNPZ(data, dim, actions)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: %w", path, err)
	}
	if t.N != info.Positions {
		return nil, fmt.Errorf("dataset: %s holds %d rows, the manifest says %d", path, t.N, info.Positions)
	}
	return t, nil
}

// maxShardBytes bounds the size of one shard file a reader accepts.
const maxShardBytes = 1 << 32
