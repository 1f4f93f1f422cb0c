package dataset

import (
	"bytes"
	"encoding/json"

	"github.com/urim-rl/urim/internal/splitmix"
)

// derive combines a seed with further values into a new seed.
func derive(seed uint64, parts ...uint64) uint64 { return splitmix.Derive(seed, parts...) }

// jsonUnmarshalStrict decodes data into v, refusing unknown fields.
func jsonUnmarshalStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
