// Command govec is the Go side of the Python tests' comparison
// (python/tests/test_vec_equals_go.py): it steps an env.Vec directly, with
// the actions a Python run played, and writes every step's tensors to a
// .npz for the test to compare with what urim.VecEnv returned.
//
//	go run ./python/tests/govec -n 8 -seed 3 -autoreset same_step -actions a.npy -out go.npz
package main

import (
	"flag"
	"fmt"
	"os"

	"codeberg.org/sbinet/npyio"
	"codeberg.org/sbinet/npyio/npz"

	"github.com/urim-rl/urim/env"
)

func main() {
	n := flag.Int("n", 8, "games")
	seed := flag.Uint64("seed", 0, "seed")
	opening := flag.Int("opening", 0, "opening plies")
	mode := flag.String("autoreset", "next_step", "autoreset mode")
	resetEvery := flag.Int("reset-every", 0, "under disabled: restart finished games after every this many steps")
	actionsPath := flag.String("actions", "", "int32 .npy of shape (steps, n)")
	out := flag.String("out", "", "the .npz to write")
	flag.Parse()
	if err := run(*n, *seed, *opening, *mode, *resetEvery, *actionsPath, *out); err != nil {
		fmt.Fprintln(os.Stderr, "govec:", err)
		os.Exit(1)
	}
}

func run(n int, seed uint64, opening int, mode string, resetEvery int, actionsPath, out string) error {
	ar, err := env.ParseAutoReset(mode)
	if err != nil {
		return err
	}
	f, err := os.Open(actionsPath)
	if err != nil {
		return err
	}
	defer f.Close()
	var actions []int32
	if err := npyio.Read(f, &actions); err != nil {
		return err
	}
	v, err := env.NewVec(env.MustGame(env.Urim), n, env.VecOptions{AutoReset: ar, Seed: seed, OpeningPlies: opening, Workers: 1})
	if err != nil {
		return err
	}
	defer v.Close()
	v.Reset()
	rec := map[string][]float32{}
	flags := map[string][]bool{}
	var toMove []int32
	record := func() {
		rec["obs"] = append(rec["obs"], v.Obs()...)
		rec["mask"] = append(rec["mask"], v.Mask()...)
		rec["rewards"] = append(rec["rewards"], v.Rewards()...)
		flags["terminated"] = append(flags["terminated"], v.Terminated()...)
		flags["truncated"] = append(flags["truncated"], v.Truncated()...)
		toMove = append(toMove, v.ToMove()...)
		if ar == env.AutoResetSameStep {
			rec["final_obs"] = append(rec["final_obs"], v.FinalObs()...)
			flags["has_final"] = append(flags["has_final"], v.HasFinalObs()...)
		}
	}
	record()
	sel := make([]bool, n)
	for t := 0; t*n < len(actions); t++ {
		if err := v.Step(actions[t*n : (t+1)*n]); err != nil {
			return err
		}
		record() // before any restart: the tensors Step returned
		if ar == env.AutoResetDisabled && resetEvery > 0 && (t+1)%resetEvery == 0 {
			for i := range sel {
				sel[i] = v.Done(i)
			}
			if err := v.ResetMask(sel); err != nil {
				return err
			}
		}
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := npz.NewWriter(w)
	for k, x := range rec {
		if err := zw.Write(k+".npy", x); err != nil {
			return err
		}
	}
	for k, x := range flags {
		if err := zw.Write(k+".npy", x); err != nil {
			return err
		}
	}
	if err := zw.Write("to_move.npy", toMove); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return w.Close()
}
