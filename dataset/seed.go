package dataset

import (
	"bytes"
	"encoding/json"
)

// mix is the SplitMix64 finaliser: a bijection that spreads every input bit
// over the output, so nearby inputs give unrelated seeds.
func mix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// derive combines a seed with further values into a new seed.
func derive(seed uint64, parts ...uint64) uint64 {
	h := mix(seed)
	for _, p := range parts {
		h = mix(h ^ mix(p))
	}
	return h
}

// jsonUnmarshalStrict decodes data into v, refusing unknown fields.
func jsonUnmarshalStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
