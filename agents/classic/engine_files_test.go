//go:build unix

package classic_test

import (
	"github.com/urim-rl/urim/agents/agenttest"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
	"github.com/urim-rl/urim/tablebase/tbtest"
)

// TestServeRefusesNonRegularFiles: "go ckpt=", "go tb=" and "go file="
// naming a device, a FIFO or a directory get an error reply at once; the
// engine neither blocks nor reads without end, and the session goes on.
func TestServeRefusesNonRegularFiles(t *testing.T) {
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", false)
	table, _ := tbtest.File(t, env.Urim, 4)
	for _, c := range []struct{ spec, key string }{
		{"az:sims=2,ckpt=" + ckpt, "ckpt"},
		{"az:sims=2,ckpt=" + ckpt, "tb"},
		{"tb:file=" + table, "file"},
	} {
		inputfiletest.Refused(t, "x.bin", func(path string) error {
			got := serve(t, c.spec, "go "+c.key+"="+path+"\nshow\n")
			if len(got) != 2 || !strings.HasPrefix(got[0], "error") || !strings.HasPrefix(got[1], "ok") {
				t.Errorf("go %s=%s: replies %q", c.key, path, got)
			}
			return errorLine(got[0])
		})
	}
}

type errorLine string

func (e errorLine) Error() string { return string(e) }
