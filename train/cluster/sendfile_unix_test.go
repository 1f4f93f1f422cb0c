//go:build unix

package cluster

import (
	"context"
	"strings"
	"testing"
)

// TestSendFileRefusesNonRegular: a checkpoint a tournament's spec names is
// read as nn reads checkpoints, so a device is refused by its kind before
// any byte is read (os.ReadFile of /dev/zero never ends) and before the
// object store is asked.
func TestSendFileRefusesNonRegular(t *testing.T) {
	_, err := sendFile(context.Background(), nil, "/dev/zero", newBlobs())
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("sendFile(/dev/zero) = %v, want an error saying it is not a regular file", err)
	}
}
