package main

import (
	"flag"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/internal/config"
)

// overlayFlags lays the flags given on the command line over a config read
// from a file (urim eval, urim selfplay): for each flag the user set that
// keys maps to a config key, the value the flags wrote into src (a config of
// dst's type, bound to the flags) is applied to dst with internal/config.Set,
// as train's --set KEY=VALUE is (and train's shortcut flags, which become
// --set overrides). Flags left at their defaults do not touch dst, so the
// file's keys stand.
func overlayFlags(fs *flag.FlagSet, dst, src any, keys map[string]string) error {
	var given []string
	fs.Visit(func(f *flag.Flag) {
		if key, ok := keys[f.Name]; ok {
			given = append(given, key)
		}
	})
	if len(given) == 0 {
		return nil
	}
	values, err := yamlValues(src)
	if err != nil {
		return err
	}
	for _, key := range given {
		text, ok := values[key]
		if !ok {
			panic(fmt.Sprintf("urim: flag key %q is not a key of %T", key, src)) // a bad keys map
		}
		if err := config.Set(dst, key+"="+text); err != nil {
			return err
		}
	}
	return nil
}

// yamlValues returns the top-level keys of cfg as YAML texts, inline
// structs flattened as their yaml tags say.
func yamlValues(cfg any) (map[string]string, error) {
	var doc yaml.Node
	if err := doc.Encode(cfg); err != nil {
		return nil, fmt.Errorf("urim: flags: %w", err)
	}
	values := map[string]string{}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		b, err := yaml.Marshal(doc.Content[i+1])
		if err != nil {
			return nil, fmt.Errorf("urim: flags: %w", err)
		}
		values[doc.Content[i].Value] = strings.TrimSpace(string(b))
	}
	return values, nil
}
