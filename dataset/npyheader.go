package dataset

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"codeberg.org/sbinet/npyio/npy"
)

// dtypeSize is the size in bytes of an element of each dtype a shard holds.
var dtypeSize = map[string]uint64{"<f4": 4, "|b1": 1, "<i4": 4, "<i8": 8}

// maxNPYHeader bounds the header of an array in a shard: the format's
// version 1 limit (a 2-byte length), which every header this writer makes
// keeps to.
const maxNPYHeader = 10 + 1<<16

// readNPYHeader checks the .npy header at the start of raw (the whole
// entry, read into br) before npyio parses it: npyio allocates whatever
// length a version 2 header claims, and panics on some malformed headers,
// so it gets only a header that is the length it says and inside the
// entry, and a panic is turned into an error.
func readNPYHeader(br *bytes.Reader, raw []byte) (r *npy.Reader, err error) {
	if len(raw) < 10 || !bytes.HasPrefix(raw, []byte("\x93NUMPY")) {
		return nil, fmt.Errorf("no .npy magic")
	}
	var n, pre uint64
	switch major := raw[6]; major {
	case 1:
		n, pre = uint64(binary.LittleEndian.Uint16(raw[8:10])), 10
	case 2, 3:
		if len(raw) < 12 {
			return nil, fmt.Errorf("%d bytes, shorter than a version %d header", len(raw), major)
		}
		n, pre = uint64(binary.LittleEndian.Uint32(raw[8:12])), 12
	default:
		return nil, fmt.Errorf("format version %d.%d (want 1, 2 or 3)", major, raw[7])
	}
	switch {
	case n == 0:
		return nil, fmt.Errorf("an empty header")
	case pre+n > maxNPYHeader:
		return nil, fmt.Errorf("a header of %d bytes, over the limit of %d", n, maxNPYHeader-10)
	case pre+n > uint64(len(raw)):
		return nil, fmt.Errorf("a header of %d bytes in an entry of %d", n, len(raw))
	case raw[pre+n-1] != '\n':
		return nil, fmt.Errorf("the header does not end with a newline")
	}
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("unreadable (%v)", p)
		}
	}()
	return npy.NewReader(br)
}
