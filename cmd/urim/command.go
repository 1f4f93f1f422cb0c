package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/urim-rl/urim/nn/kernels"
)

// command is one subcommand: its flags are bound by setup into an options
// value that the function setup returns closes over. That function only
// checks the arguments and builds what they ask for; the command's named
// run function (runEval, runTrain, runSelfPlay, ...) does the work and
// prints. Each subcommand lives in its own file and registers itself from
// init.
type command struct {
	name  string // as typed: "replay"
	usage string // argument synopsis after the name
	short string // one line for the command list
	long  string // description and examples for --help
	// more, when set, returns text printed after long by --help, made when
	// asked (a list of subcommands that register themselves).
	more func() string
	// setup binds the flags and returns the function that does the work with
	// the remaining arguments.
	setup func(fs *flag.FlagSet) func(io *stdio, args []string) error
	// sub reports whether a first argument names a subcommand, which then
	// parses the arguments after it itself (nil: none does).
	sub func(arg string) bool
}

// stdio carries the streams a command reads and writes, so tests use buffers.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

var commands = map[string]*command{}

// kernelsEnvError is kernels.EnvError, a variable so that a test can stand in
// for a bad URIM_KERNELS (read once, when the process starts).
var kernelsEnvError = kernels.EnvError

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("urim: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error whose message is a usage problem (exit status 2).
var errUsage = errors.New("usage")

func usageErrorf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUsage}, args...)...)
}

// run dispatches args and returns the exit status.
func run(args []string, in io.Reader, out, errw io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			args = []string{args[1], "--help"}
		} else {
			printCommands(out)
			return 0
		}
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = []string{"version"}
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(errw, "urim: unknown command %q\n\n", args[0])
		printCommands(errw)
		return 2
	}
	// A back-end forced by URIM_KERNELS that this build or CPU lacks stops
	// every command: a benchmark must never measure another path silently.
	if err := kernelsEnvError(); err != nil {
		fmt.Fprintf(errw, "urim: %v\n", err)
		return 2
	}
	return runCommand(c, "urim "+c.name, args[1:], &stdio{in: in, out: out, err: errw})
}

// runCommand parses a command's flags and runs it; nested commands (bench)
// call it for their children.
func runCommand(c *command, path string, args []string, std *stdio) int {
	fs := flag.NewFlagSet(path, flag.ContinueOnError)
	fs.SetOutput(std.err)
	do := c.setup(fs)
	usage := func(w io.Writer) {
		fmt.Fprintf(w, "Usage: %s\n\n%s\n", strings.TrimSpace(path+" "+c.usage), strings.TrimSpace(c.long))
		if c.more != nil {
			fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.more(), "\n"))
		}
		if hasFlags(fs) {
			fmt.Fprintf(w, "\nFlags:\n")
			fs.SetOutput(w)
			fs.PrintDefaults()
		}
	}
	// Parse reports a bad flag itself; the usage is printed here, once, to
	// standard output for --help and to standard error otherwise.
	fs.Usage = func() {}
	pos, err := parseArgs(fs, args, c.sub)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(std.out)
			return 0
		}
		if errors.Is(err, errNonFinite) || errors.Is(err, errFlagsBeforeSub) {
			fmt.Fprintf(std.err, "%s: %v\n", path, err)
		}
		usage(std.err)
		return 2
	}
	if err := do(std, pos); err != nil {
		var code exitCode
		if errors.As(err, &code) {
			return int(code)
		}
		// A package's prefix that repeats the command's name goes:
		// "urim train: config: ...", not "urim train: train: config: ...".
		msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "usage: "), c.name+": ")
		fmt.Fprintf(std.err, "%s: %s\n", path, msg)
		if errors.Is(err, errUsage) {
			fmt.Fprintf(std.err, "Run '%s --help' for usage.\n", path)
			return 2
		}
		return 1
	}
	return 0
}

// runChild runs c, a child of a command (urim nn new, urim eval sprt),
// as parent's subcommand with its arguments: it parses them and reports its
// errors itself, and its exit status is passed on.
func runChild(io *stdio, parent string, c *command, args []string) error {
	if code := runCommand(c, parent+" "+c.name, args, io); code != 0 {
		return exitCode(code)
	}
	return nil
}

// parseArgs parses flags before, between and after the positional
// arguments, which it returns ("--" ends the flags). When sub claims the
// first positional argument, the rest is left to that subcommand unparsed.
// A float flag set to NaN or ±Inf is an error: such a value passes every
// range check written as x < lo || x > hi.
func parseArgs(fs *flag.FlagSet, args []string, sub func(string) bool) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := args[:len(args)-len(rest)]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		if len(pos) == 0 && sub != nil && sub(rest[0]) {
			if fs.NFlag() > 0 {
				// The subcommand parses its own flags: these would be lost.
				var set []string
				fs.Visit(func(f *flag.Flag) { set = append(set, "--"+f.Name) })
				return nil, fmt.Errorf("%w: %s before %q: give a subcommand's flags after its name", errFlagsBeforeSub,
					strings.Join(set, ", "), rest[0])
			}
			pos = rest
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if g, ok := f.Value.(flag.Getter); ok && bad == nil {
			if x, ok := g.Get().(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
				bad = fmt.Errorf("%w: -%s %s", errNonFinite, f.Name, f.Value)
			}
		}
	})
	return pos, bad
}

// errFlagsBeforeSub is the error of flags given before a subcommand's name
// (urim eval --quiet accuracy ...), which the subcommand would not see.
var errFlagsBeforeSub = errors.New("misplaced flags")

// errNonFinite is the error of a float flag set to NaN or ±Inf.
var errNonFinite = errors.New("want a finite number")

// exitCode is returned by a command that has already reported its failure
// and wants only the exit status passed on.
type exitCode int

func (c exitCode) Error() string { return fmt.Sprintf("exit status %d", int(c)) }

// flagGiven reports whether the command line set the flag name.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

func printCommands(w io.Writer) {
	fmt.Fprintln(w, "urim: a toolkit for reinforcement-learning research on Urim, the two-row mancala of Brava, Cape Verde.")
	fmt.Fprintln(w, "\nUsage: urim <command> [flags] [arguments]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(w, "\nFlags may come before or after the arguments. Run 'urim <command> --help' for a command's flags and examples;")
	fmt.Fprintln(w, "'urim --version' prints the version.")
}
