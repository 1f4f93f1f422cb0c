package tablebase

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/urim-rl/urim/env"
)

func TestSpeedTmp(t *testing.T) {
	k, _ := strconv.Atoi(os.Getenv("TBK"))
	if k == 0 {
		t.Skip()
	}
	_, st, err := Build(context.Background(), env.Urim, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		t.Logf("%+v", s)
	}
}
