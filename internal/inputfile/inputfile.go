// Package inputfile opens the files urim is given to read, the one way every
// reader of urim does so: checkpoints, tables, rules and configs, dataset
// manifests, shards and game files, run-directory files, and the files the
// engine protocol names. A file arrives from the user (or a protocol client),
// so it is untrusted: a device such as /dev/zero or /dev/urandom would never
// end, a FIFO could block forever and a huge file would exhaust memory. So
// only a regular file is read (after following symlinks), it is opened
// without blocking on a FIFO, and every read stops at a limit the caller
// gives: the most its format allows.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// ErrNotRegular is the error for a path that is a directory, a device, a
// FIFO or a socket rather than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error for a file longer than the caller's limit.
var ErrTooLarge = errors.New("too large")

// File is a regular file open for reading, with a limit: a read that would
// pass the limit fails with an error wrapping [ErrTooLarge].
type File struct {
	f     *os.File
	path  string
	what  string
	limit int64
	n     int64 // bytes read so far
	size  int64 // the size when opened
}

// Open opens the regular file at path for reading, following symlinks, and
// refuses anything else (an error wrapping [ErrNotRegular] that says what
// the path is) or a file longer than limit bytes (wrapping [ErrTooLarge]).
// what names the format in errors ("a checkpoint"); limit is the most bytes
// such a file can hold. Errors name path.
func Open(path string, limit int64, what string) (*File, error) {
	f, err := openNonblock(path)
	if err != nil {
		return nil, err
	}
	return checked(f, path, limit, what)
}

// OpenIn opens the file name inside root as [Open] opens a path: a regular
// file of at most limit bytes. Symlinks are followed only while they stay
// inside root (os.Root): a name that leads out of it is an error, and the
// check and the open are one step, so a directory swapped for a symlink
// between them cannot lead the read out. Errors name name.
func OpenIn(root *os.Root, name string, limit int64, what string) (*File, error) {
	f, err := openNonblockIn(root, name)
	if err != nil {
		return nil, err
	}
	return checked(f, name, limit, what)
}

// ReadFileIn reads the whole regular file name inside root, as [OpenIn]
// opens it and [ReadFile] reads.
func ReadFileIn(root *os.Root, name string, limit int64, what string) ([]byte, error) {
	r, err := OpenIn(root, name, limit, what)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.readAll()
}

// checked wraps the file f opened by path, refusing what is not a regular
// file of at most limit bytes.
func checked(f *os.File, path string, limit int64, what string) (*File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	r := &File{f: f, path: path, what: what, limit: limit, size: fi.Size()}
	if fi.Size() > limit {
		f.Close()
		return nil, r.tooLarge(fi.Size())
	}
	return r, nil
}

func (r *File) tooLarge(n int64) error {
	what := r.what
	if what == "" {
		what = "such a file"
	}
	return &fs.PathError{Op: "read", Path: r.path,
		Err: fmt.Errorf("%w: %s bytes or more, more than %s can hold (at most %d bytes)", ErrTooLarge, commas(n), what, r.limit)}
}

// Read reads from the file, failing with an error wrapping [ErrTooLarge]
// once the file has given more than the limit.
func (r *File) Read(p []byte) (int, error) {
	if r.n > r.limit {
		return 0, r.tooLarge(r.n)
	}
	// One byte past the limit tells a long file from one at the limit.
	if room := r.limit - r.n; room < math.MaxInt64 && int64(len(p)) > room+1 {
		p = p[:room+1]
	}
	n, err := r.f.Read(p)
	r.n += int64(n)
	if r.n > r.limit {
		return n - int(r.n-r.limit), r.tooLarge(r.n)
	}
	return n, err
}

// Size returns the file's size when it was opened.
func (r *File) Size() int64 { return r.size }

// Name returns the path the file was opened by.
func (r *File) Name() string { return r.path }

// Close closes the file.
func (r *File) Close() error { return r.f.Close() }

// ReadFile reads the whole regular file at path, as [Open] opens it: a
// path that is not a regular file, or a file longer than limit bytes, is an
// error (naming path) before anything is read into memory.
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	r, err := Open(path, limit, what)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.readAll()
}

// readAll reads the rest of the file, within its limit.
func (r *File) readAll() ([]byte, error) {
	limit := r.limit
	// The size when opened is a hint: the file may grow or shrink while it
	// is read, and the limit still holds.
	buf := make([]byte, 0, min(r.size, limit-1)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// Kind names what a file of mode m is, for errors about a path that is not
// a regular file ("a FIFO", "a character device").
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "a file of mode " + m.String()
}

// commas writes n with thousands separators.
func commas(n int64) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
