package train_test

// The config tests validate every shipped config, so the test binary
// registers every algorithm, as cmd/urim does.
import _ "github.com/urim-rl/urim/train/all"
