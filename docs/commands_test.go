// Package docs_test runs the command blocks of README.md and docs/*.md, so
// that every command a reader pastes works as written.
//
// The convention: a fenced block opened with ```sh is a command a reader
// can paste and run from the repository root with urim on PATH; it is run
// here, in order within its page, in a copy of the repository (so what it
// writes lands in a temporary directory, not the tree) with a freshly built
// urim first on PATH and an empty standard input. A block that shows
// output, is interactive, long or needs set-up is ```console or ```text, or
// is preceded by the line
//
//	<!-- docs-test: skip (the reason) -->
//
// A block without a language whose lines look like commands is an error:
// say which it is. By default (and with -short) only these rules are
// checked; the blocks run with URIM_DOCS_TESTS=1, a step of its own in
// .ci/run: together they take minutes (452 s on a loaded 2-core machine),
// too long for go test ./..., the README's test command.
package docs_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// blockBudget bounds one block's run; a block that needs longer is marked
// skip with its reason, or given smaller settings the page can state.
const blockBudget = 3 * time.Minute

// block is one fenced block of a page.
type block struct {
	page   string // "docs/nn.md"
	line   int    // the line of its opening fence
	lang   string // "sh", "text", "" ...
	body   string
	skip   string // the reason of a docs-test: skip comment, or ""
	errors []string
}

var (
	fence   = regexp.MustCompile("^(```+|~~~+)\\s*([A-Za-z0-9_+-]*)")
	skipRe  = regexp.MustCompile(`^<!--\s*docs-test:\s*skip\b(.*?)-->\s*$`)
	reason  = regexp.MustCompile(`^\s*\((.+)\)\s*$`)
	cmdLike = regexp.MustCompile(`^\s*(\$ |urim |go |\./|scripts/|bin/urim )`)
)

// parsePage returns the fenced blocks of a Markdown page.
func parsePage(page string, text []byte) []block {
	var blocks []block
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var (
		cur      *block
		open     string
		lastText string // the last non-blank line outside a block
		n        int
	)
	for sc.Scan() {
		n++
		l := sc.Text()
		if cur != nil {
			if tl := strings.TrimSpace(l); strings.HasPrefix(tl, open) && strings.Trim(tl, open[:1]) == "" {
				blocks = append(blocks, *cur)
				cur, lastText = nil, l // a skip comment covers one block
				continue
			}
			cur.body += l + "\n"
			continue
		}
		if m := fence.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			cur = &block{page: page, line: n, lang: m[2]}
			open = m[1]
			if s := skipRe.FindStringSubmatch(strings.TrimSpace(lastText)); s != nil {
				if r := reason.FindStringSubmatch(s[1]); r != nil {
					cur.skip = r[1]
				} else {
					cur.errors = append(cur.errors, "a docs-test: skip comment without a (reason)")
					cur.skip = "?"
				}
			}
			continue
		}
		if strings.TrimSpace(l) != "" {
			lastText = l
		}
	}
	if cur != nil {
		cur.errors = append(cur.errors, "the block is never closed")
		blocks = append(blocks, *cur)
	}
	for i := range blocks {
		b := &blocks[i]
		if b.lang == "" {
			for _, l := range strings.Split(b.body, "\n") {
				if cmdLike.MatchString(l) {
					b.errors = append(b.errors, fmt.Sprintf("a block without a language holds a command (%q): open it with ```sh "+
						"(run by docs/commands_test.go), or ```console or ```text (not run)", strings.TrimSpace(l)))
					break
				}
			}
		}
	}
	return blocks
}

// pages returns README.md and docs/*.md, relative to the repository root.
func pages(t *testing.T, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// TestDocsCommandBlocks checks every page's blocks against the convention
// and, without -short, runs every ```sh block.
func TestDocsCommandBlocks(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var run [][]block
	for _, page := range pages(t, root) {
		text, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		var sh []block
		for _, b := range parsePage(page, text) {
			for _, e := range b.errors {
				t.Errorf("%s:%d: %s", b.page, b.line, e)
			}
			if b.lang == "sh" && b.skip == "" {
				sh = append(sh, b)
			}
		}
		if len(sh) > 0 {
			run = append(run, sh)
		}
	}
	if testing.Short() || os.Getenv("URIM_DOCS_TESTS") == "" {
		t.Skip("the blocks are checked, not run (URIM_DOCS_TESTS=1 runs them, as .ci/run does)")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the blocks")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "urim"), "./cmd/urim")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/urim: %v\n%s", err, out)
	}
	for _, blocks := range run {
		page := blocks[0].page
		t.Run(page, func(t *testing.T) {
			// One copy of the repository per page: its blocks run in
			// order, as a reader follows them.
			work := filepath.Join(tmp, "work-"+strings.NewReplacer("/", "-", ".", "-").Replace(page))
			if err := copyRepo(root, work); err != nil {
				t.Fatal(err)
			}
			for _, b := range blocks {
				runBlock(t, b, work, tmp, bin)
			}
		})
	}
}

// runBlock runs one ```sh block with bash -e in dir.
func runBlock(t *testing.T, b block, dir, tmp, bin string) {
	t.Helper()
	script := filepath.Join(tmp, fmt.Sprintf("block-%d.sh", b.line))
	if err := os.WriteFile(script, []byte("set -eo pipefail\n"+b.body), 0o644); err != nil {
		t.Fatal(err)
	}
	budget := blockBudget
	if d, ok := t.Deadline(); ok && time.Until(d)-30*time.Second < budget {
		budget = max(time.Until(d)-30*time.Second, time.Second) // fail with the block's output, before go test's timeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", script)
	cmd.Dir = dir
	gobin := filepath.Join(tmp, "gobin") // go install lands here, not in the user's GOPATH
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+gobin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GOBIN="+gobin)
	cmd.Stdin = nil // empty: an interactive command ends at once
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start).Round(100 * time.Millisecond)
	if ctx.Err() != nil {
		t.Errorf("%s:%d: still running after %v (the budget of a block, or what go test's -timeout left): mark it <!-- docs-test: skip (reason) --> or make it smaller\n%s",
			b.page, b.line, budget, tail(out.String(), 30))
		return
	}
	if err != nil {
		t.Errorf("%s:%d: %v after %v\n--- the block:\n%s--- its output (the end):\n%s", b.page, b.line, err, took, b.body, tail(out.String(), 40))
		return
	}
	t.Logf("%s:%d: ok in %v", b.page, b.line, took)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n") + "\n"
}

// copyRepo copies the repository's files at root into dst: the files git
// tracks (and the ones not yet added), or, outside a git checkout, every
// file but .git, runs/ and data/.
func copyRepo(root, dst string) error {
	var files []string
	ls := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "-z")
	ls.Dir = root
	if out, err := ls.Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
	} else {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			if d.IsDir() && (rel == ".git" || rel == "runs" || rel == "data") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	for _, f := range files {
		src := filepath.Join(root, f)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		if err := copyFile(filepath.Join(dst, f), src, fi.Mode()); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(dst, src string, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode.Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// TestParsePage pins the convention's corner cases.
func TestParsePage(t *testing.T) {
	page := "x\n\n```sh\nurim rules\n```\n\n<!-- docs-test: skip (trains for minutes) -->\n```sh\nurim train\n```\n" +
		"<!-- docs-test: skip -->\n```sh\nurim x\n```\n```\nurim match a b\n```\n```\n+---+\n```\n```console\n$ urim rules\n```\n"
	bs := parsePage("p.md", []byte(page))
	if len(bs) != 6 {
		t.Fatalf("%d blocks: %+v", len(bs), bs)
	}
	want := []struct {
		lang, skip string
		errs       int
	}{{"sh", "", 0}, {"sh", "trains for minutes", 0}, {"sh", "?", 1}, {"", "", 1}, {"", "", 0}, {"console", "", 0}}
	for i, w := range want {
		if b := bs[i]; b.lang != w.lang || b.skip != w.skip || len(b.errors) != w.errs {
			t.Errorf("block %d (line %d): lang %q skip %q errors %v, want %q %q %d", i, b.line, b.lang, b.skip, b.errors, w.lang, w.skip, w.errs)
		}
	}
	if bs[0].body != "urim rules\n" || bs[0].line != 3 {
		t.Errorf("first block %q at line %d", bs[0].body, bs[0].line)
	}
}
