//go:build unix

package classic

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes the engine the leader of a new process group, so
// that killProcessGroup reaches the children it started too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the engine and every process of its group: a child
// that holds the engine's output open would otherwise outlive it.
func killProcessGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
	_ = p.Kill()
}
