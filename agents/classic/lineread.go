package classic

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode"
)

// MaxLineBytes is the longest line of the engine protocol (docs/protocol.md)
// that either side reads, newline excluded: 1 MiB. A longer command gets an
// "error" reply from [Serve]; a longer reply makes the external agent fail.
const MaxLineBytes = 1 << 20

// lineHead is how much of an over-long line next returns.
const lineHead = 64

// errLineTooLong is returned by lineReader.next for a line over its limit.
var errLineTooLong = fmt.Errorf("line longer than %d bytes (the protocol's limit)", MaxLineBytes)

// lineReader reads newline-terminated lines of at most max bytes. Unlike
// bufio.Scanner it survives an over-long line: next reports it once and
// skips to the following line, so a session can answer it and go on.
type lineReader struct {
	br  *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its line ending. At the end of input it
// returns the last unterminated line, if any, and then io.EOF. A line over
// the limit is reported as errLineTooLong, with its first lineHead bytes
// after leading blanks (so a caller can still tell a comment from a
// command); with skip set the rest of it is consumed, so the next call reads
// the following line, and without it the stream is left mid-line (the caller
// gives up on it).
func (lr *lineReader) next(skip bool) (string, error) {
	var line, head []byte
	tooLong := false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		switch {
		case !tooLong:
			line = append(line, chunk...)
			if len(bytes.TrimRight(line, "\r\n")) > lr.max {
				tooLong = true
				head = headOf(line)
				line = nil
				if !skip {
					return string(head), errLineTooLong
				}
			}
		case len(head) == 0:
			head = headOf(chunk)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case tooLong && (err == nil || errors.Is(err, io.EOF)):
			return string(head), errLineTooLong
		case err == nil || (errors.Is(err, io.EOF) && len(line) > 0):
			return string(bytes.TrimRight(line, "\r\n")), nil
		default:
			return "", err
		}
	}
}

// headOf copies the first lineHead bytes of b after leading blanks.
func headOf(b []byte) []byte {
	b = bytes.TrimLeftFunc(b, unicode.IsSpace)
	return append([]byte(nil), b[:min(len(b), lineHead)]...)
}
