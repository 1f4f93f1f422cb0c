package nn

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/sbinet/npyio"

	"github.com/urim-rl/urim/env"
)

// numpyPython returns a python3 that imports numpy: Debian's /usr/bin/python3
// first (the python3 on PATH may be another one without numpy), then PATH's.
func numpyPython() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import numpy").Run() == nil {
			return py
		}
	}
	return ""
}

// docSnippet returns the numpy forward pass of docs/nn.md.
func docSnippet(t *testing.T) string {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "nn.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, "<!-- numpy-forward -->")
	j := strings.Index(s, "<!-- /numpy-forward -->")
	if i < 0 || j < i {
		t.Fatal("docs/nn.md has no numpy-forward snippet")
	}
	s = s[i:j]
	s = s[strings.Index(s, "```python")+len("```python") : strings.LastIndex(s, "```")]
	return s
}

// TestNumpyForwardMatches exports networks of every kind to .npz, runs the
// numpy snippet of docs/nn.md on the same observations and compares its
// outputs with Predict's, and the loss with a numpy computation of it.
func TestNumpyForwardMatches(t *testing.T) {
	py := numpyPython()
	if py == "" {
		t.Skip("no python3 with numpy (apt-get install python3-numpy): skipping the numpy cross-check")
	}
	snippet := docSnippet(t)
	for _, arch := range archs() {
		dir := t.TempDir()
		n, _ := New(arch, env.Urim, env.EncodingThermometer, 9)
		if arch.LayerNorm { // non-trivial gains and biases
			for i, p := range n.params {
				if s := n.g.specs[i]; s.init == initOne || s.init == initZero {
					for j := range p.W {
						p.W[j] += 0.2 * float32(math.Cos(float64(j+i)))
					}
				}
			}
		}
		npzPath := filepath.Join(dir, "net.npz")
		if err := n.ExportNPZ(npzPath, 0); err != nil {
			t.Fatal(err)
		}
		const batch = 40
		b := testBatch(t, env.Urim, env.EncodingThermometer, batch, 2)
		obs := b.Obs
		save := func(name string, flat []float32, width int) string {
			rows := make([][]float32, batch)
			for r := range rows {
				rows[r] = flat[r*width : (r+1)*width]
			}
			var buf bytes.Buffer
			if err := npyio.Write(&buf, rows); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, name+".npy")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}
		obsPath := save("obs", obs, n.InputDim())
		mask := make([]float32, len(b.Mask))
		for i, ok := range b.Mask {
			if ok {
				mask[i] = 1
			}
		}
		maskPath := save("mask", mask, n.Actions())
		policyPath := save("policy", b.Policy, n.Actions())
		valuePath := save("value", b.Outcome, 1)
		// The loss in float64 numpy, written independently of loss.go:
		// masked log-softmax cross-entropy plus squared error, weights 1.
		script := strings.Replace(snippet, `"net.npz"`, `"`+npzPath+`"`, 1) + `
x = np.load("` + obsPath + `")
logits, values = forward(x)
mask, pi, z = np.load("` + maskPath + `"), np.load("` + policyPath + `"), np.load("` + valuePath + `")[:, 0]
l = np.where(mask > 0, logits.astype(np.float64), -np.inf)
logp = l - l.max(1, keepdims=True)
logp = logp - np.log(np.exp(logp).sum(1, keepdims=True))
ce = -np.where(mask > 0, pi * logp, 0).sum(1).mean()
mse = ((values.astype(np.float64) - z) ** 2).mean()
print(json.dumps({"logits": logits.astype(float).tolist(), "values": values.astype(float).tolist(), "loss": ce + mse}))
`
		cmd := exec.Command(py, "-c", script)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: python: %v\n%s", arch, err, stderr.String())
		}
		var got struct {
			Logits [][]float64
			Values []float64
			Loss   float64
		}
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: %v in %q", arch, err, out)
		}
		tr, _ := NewTrainer(n, TrainConfig{}, batch)
		t.Logf("%v: relative loss difference %.2g", arch, math.Abs(tr.Evaluate(b).Loss-got.Loss)/got.Loss)
		if loss := tr.Evaluate(b).Loss; math.Abs(loss-got.Loss) > 1e-5*math.Abs(got.Loss) {
			t.Fatalf("%v: loss %v in Go, %v in numpy", arch, loss, got.Loss)
		}
		logits, values := n.NewPredictor(batch).Predict(obs, batch)
		if len(got.Logits) != batch || len(got.Values) != batch {
			t.Fatalf("%v: numpy gave %d and %d rows", arch, len(got.Logits), len(got.Values))
		}
		for r := 0; r < batch; r++ {
			if d := math.Abs(got.Values[r] - float64(values[r])); d > 1e-5 {
				t.Fatalf("%v row %d: value %v in numpy, %v in Go", arch, r, got.Values[r], values[r])
			}
			for a := 0; a < n.Actions(); a++ {
				if d := math.Abs(got.Logits[r][a] - float64(logits[r*n.Actions()+a])); d > 1e-5 {
					t.Fatalf("%v row %d: logit %d is %v in numpy, %v in Go", arch, r, a, got.Logits[r][a], logits[r*n.Actions()+a])
				}
			}
		}
	}
}
