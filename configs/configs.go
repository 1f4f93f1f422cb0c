// Package configs embeds the shipped configs that commands fall back on, so
// the main job runs on its built-in defaults from any directory: `urim train`
// without --config trains with quickstart.yaml.
package configs

import _ "embed"

// Quickstart is configs/quickstart.yaml: AlphaZero on urim in about two
// minutes on a 2-core machine (its time budget stops it at nine).
//
//go:embed quickstart.yaml
var Quickstart []byte

// QuickstartName is how errors and logs name the embedded quickstart config.
const QuickstartName = "configs/quickstart.yaml (built in)"

// Urim is configs/urim.yaml: the canonical AlphaZero training config (the
// shipped model's), whose self-play `urim bench az` measures by default.
//
//go:embed urim.yaml
var Urim []byte

// UrimName is how errors and logs name the embedded urim config.
const UrimName = "configs/urim.yaml (built in)"
