package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/urim-rl/urim/train"
)

// setFlags collects repeated --set key=value overrides.
type setFlags []string

func (s *setFlags) String() string { return strings.Join(*s, " ") }

// Set appends one override.
func (s *setFlags) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("want key=value, such as search.sims=200")
	}
	*s = append(*s, v)
	return nil
}

// parseInterspersed parses flags that follow positional arguments too
// (urim config check FILE --set k=v), returning the positional arguments.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for len(args) > 0 {
		if !strings.HasPrefix(args[0], "-") || args[0] == "-" {
			pos = append(pos, args[0])
			args = args[1:]
			continue
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		if err := fs.Parse(args); err != nil {
			return nil, usageErrorf("%v", err)
		}
		args = fs.Args()
	}
	return pos, nil
}

func init() {
	register(&command{
		name:  "config",
		usage: "(check | print) [--set key=value ...] FILE",
		short: "check a training config, or print it with every default filled in",
		long: `'urim config check FILE' reads a training config (the YAML that 'urim train'
takes) strictly and reports the first problem with its file, line and key
path: an unknown key (with the keys allowed there), a value of the wrong type,
a number out of range or not finite, a value not among those allowed.

'urim config print FILE' prints the effective config: every key, the defaults
filled in and the overrides applied. That is what a run stores as config.yaml.

--set key.path=value overrides one key (repeatable); the value is YAML, so
lists work: --set evaluation.opponents=[random,greedy]. docs/config.md
documents every key.

Examples:
  urim config check configs/quickstart.yaml
  urim config print --set search.sims=200 configs/urim.yaml`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			var sets setFlags
			fs.Var(&sets, "set", "override a key: key.path=value (repeatable)")
			return func(io *stdio, args []string) error {
				args, err := parseInterspersed(fs, args)
				if err != nil {
					return err
				}
				if len(args) != 2 || (args[0] != "check" && args[0] != "print") {
					return usageErrorf("want 'check FILE' or 'print FILE'")
				}
				return runConfig(io, args[0], args[1], sets)
			}
		},
	})
}

// runConfig reads the training config file strictly with the overrides
// sets, and says it is ok (verb check) or prints it (verb print).
func runConfig(io *stdio, verb, file string, sets []string) error {
	cfg, err := train.LoadConfig(file, sets)
	if err != nil {
		return err
	}
	if verb == "check" {
		fmt.Fprintf(io.out, "%s: ok\n", file)
		return nil
	}
	data, err := cfg.Marshal()
	if err != nil {
		return err
	}
	_, err = io.out.Write(data)
	return err
}
