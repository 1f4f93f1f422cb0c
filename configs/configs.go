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
