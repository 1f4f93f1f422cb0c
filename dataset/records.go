package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// maxRecordLine bounds one line of a .jsonl.gz file (a game of a few
// thousand plies is a few tens of kilobytes).
const maxRecordLine = 4 << 20

// WriteRecords writes recs as gzip-compressed JSON Lines, one game a line.
func WriteRecords(w io.Writer, recs []Record) error {
	zw := gzip.NewWriter(w)
	bw := bufio.NewWriterSize(zw, 64<<10)
	enc := json.NewEncoder(bw)
	for i := range recs {
		if err := enc.Encode(&recs[i]); err != nil {
			return fmt.Errorf("dataset: encoding game %d: %w", recs[i].ID, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// ReadRecords reads the games of a .jsonl.gz file from its bytes. Unknown
// fields are errors, and each error names the line.
func ReadRecords(data []byte) ([]Record, error) {
	return readRecords(data, MaxShardPositions)
}

// readRecords is ReadRecords that refuses more than maxGames games, or a
// file that inflates more than gzip can (maxInflate).
func readRecords(data []byte, maxGames int) ([]Record, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not gzip: %w", err)
	}
	sc := bufio.NewScanner(&inflateLimit{r: zr, left: int64(len(data))*maxInflate + 1<<10})
	sc.Buffer(make([]byte, 0, 64<<10), maxRecordLine)
	var recs []Record
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			return nil, fmt.Errorf("line %d: empty", line)
		}
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		var r Record
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("line %d: more than one JSON value", line)
		}
		if len(recs) == maxGames {
			return nil, fmt.Errorf("line %d: more than %d games (the shard's count)", line, maxGames)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return recs, nil
}

// inflateLimit fails a decompressed stream that grows past left bytes: more
// than deflate can give for its compressed size, a crafted file.
type inflateLimit struct {
	r    io.Reader
	left int64
}

func (l *inflateLimit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, fmt.Errorf("inflates to more than %d times its size: not a file this writer made", maxInflate)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
