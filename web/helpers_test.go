package web

import (
	"sync"
	"testing"

	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/tablebase"
)

func readStoreForTest(path string) ([]evaluate.Record, error) {
	st, err := evaluate.OpenStore(path)
	if err != nil {
		return nil, err
	}
	return st.Records(), nil
}

var (
	tableOnce sync.Once
	table     *tablebase.Table
)

func testTable(t testing.TB) *tablebase.Table {
	tableOnce.Do(func() {
		var err error
		if table, err = tablebase.Load(testFixture(t).tb); err != nil {
			t.Fatal(err)
		}
	})
	return table
}
