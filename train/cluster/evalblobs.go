package cluster

// The blob store of tournament jobs: the checkpoints a spec names go to the
// run's object store by SHA-256 (ckpt=blob:SUM), and workers fetch them.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// blobs are the checkpoints one tournament sent: their SHA-256 by path,
// and the SHA-256s this process put in the object store (those not there
// already).
type blobs struct {
	sum map[string]string
	put map[string]bool
}

func newBlobs() *blobs { return &blobs{sum: map[string]string{}, put: map[string]bool{}} }

// sendFiles puts the checkpoint a spec names (ckpt=FILE: an agent's, or a
// run's network, train.NetworkAgent) in the run's object store, named by
// its SHA-256, and returns the spec naming it so.
func sendFiles(ctx context.Context, res *resources, spec string, sent *blobs) (string, error) {
	if nw, ok, err := train.ParseRunNetwork(spec); ok {
		if err != nil {
			return "", err
		}
		sum, err := sendFile(ctx, res, nw.Path, sent)
		if err != nil {
			return "", err
		}
		nw.Path = blobPrefix + sum
		return nw.Spec(), nil
	}
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return spec, nil // agents.New reports it on the worker as here
	}
	path, ok := sp.Params["ckpt"]
	if ok && !strings.HasPrefix(path, blobPrefix) {
		sum, err := sendFile(ctx, res, path, sent)
		if err != nil {
			return "", err
		}
		sp.Params["ckpt"] = blobPrefix + sum
	}
	if err := travels(sp); err != nil {
		return "", err
	}
	return sp.Canonical(), nil
}

// sendFile puts the file at path in the run's object store, named by its
// SHA-256 (once: sent remembers it), and returns the SHA-256.
func sendFile(ctx context.Context, res *resources, path string, sent *blobs) (string, error) {
	sum, ok := sent.sum[path]
	if !ok {
		data, err := nn.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("cluster: %w", err)
		}
		sum = sha256Hex(data)
		if _, err := res.nets.GetInfo(ctx, "blob-"+sum); err != nil {
			if _, err := res.nets.PutBytes(ctx, "blob-"+sum, data); err != nil {
				return "", fmt.Errorf("cluster: send %s: %w", path, err)
			}
			sent.put[sum] = true
		}
		sent.sum[path] = sum
	}
	return sum, nil
}

// fetchBlob returns the local copy in dir of the checkpoint of the run's
// object store whose SHA-256 is sum (ckpt=blob:SUM), fetched once and
// checked.
func fetchBlob(ctx context.Context, res *resources, dir, sum string) (string, error) {
	if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return "", fmt.Errorf("cluster: %q is not a SHA-256", sum)
	}
	path := filepath.Join(dir, sum+".ckpt")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	data, err := fetchChecked(ctx, res, "blob-"+sum, sum, "checkpoint "+sum[:12])
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return "", fmt.Errorf("cluster: %w", err)
	}
	return path, nil
}
