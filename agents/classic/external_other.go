//go:build !unix

package classic

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(cmd *exec.Cmd) {}

// killProcessGroup kills the engine; its children are not reached.
func killProcessGroup(p *os.Process) { _ = p.Kill() }
