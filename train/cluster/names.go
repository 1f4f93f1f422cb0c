package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/buildinfo"
	"github.com/urim-rl/urim/train"
)

// names are the JetStream resources of one run.
type names struct {
	run string
	// stream holds the workers' shards, published to shards+".<worker>".
	stream, shards string
	// kv holds the run's config, rules, newest network version and the
	// workers' heartbeats; nets is the object store of network versions.
	kv, nets string
	// evalStream holds tournament games to play (evalJobs+".<tournament>"),
	// resStream their records (evalResults+".<tournament>").
	evalStream, evalJobs, resStream, evalResults string
}

func namesOf(run string) names {
	return names{run: run,
		stream: "URIM_" + run + "_SHARDS", shards: "urim." + run + ".shards",
		kv: "URIM_" + run, nets: "URIM_" + run + "_NETS",
		evalStream: "URIM_" + run + "_EVAL", evalJobs: "urim." + run + ".eval.jobs",
		resStream: "URIM_" + run + "_EVALRES", evalResults: "urim." + run + ".eval.results"}
}

// RunName is the run name of cfg: cluster.run, or the run directory's base
// name with characters other than letters, digits, - and _ made _.
func RunName(cfg *train.Config) (string, error) {
	if cfg.Cluster.Run != "" {
		return cfg.Cluster.Run, nil
	}
	base := filepath.Base(filepath.Clean(cfg.Output))
	name := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, base)
	if len(name) > 64 {
		name = name[:64]
	}
	if !train.RunNameOK.MatchString(name) {
		return "", fmt.Errorf("cluster: the run directory %q gives no run name: set cluster.run", cfg.Output)
	}
	return name, nil
}

// rulesKey identifies rules exactly: the SHA-256 of their JSON form.
func rulesKey(r env.Rules) string {
	b, _ := json.Marshal(r)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// protocol is the version of this package's messages; a worker and a
// learner of different protocols or builds do not mix their games.
const protocol = "1"

// Build identifies the running binary for the run: the message protocol,
// the module version and the commit (with +dirty for a modified tree).
func Build() string {
	b := buildinfo.Read()
	s := "p" + protocol + " " + b.Version
	if b.Revision != "" {
		s += " " + b.Revision
	}
	if b.Modified {
		s += "+dirty"
	}
	return s
}

// Headers of a shard message.
const (
	hdrShard   = "Urim-Shard"
	hdrVersion = "Urim-Version"
	hdrBuild   = "Urim-Build"
	hdrRules   = "Urim-Rules"
	hdrWorker  = "Urim-Worker"
	hdrGames   = "Urim-Games"
)
