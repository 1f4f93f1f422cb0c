package main

import (
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// runPlayWeb serves the page of urim serve set up for the game of the
// flags: the person's side, the opponent's spec, the rules and the start.
func runPlayWeb(io *stdio, o *playOptions) error {
	g, err := loadGame(*o.rules)
	if err != nil {
		return err
	}
	if _, err := startPosition(g, o.position); err != nil {
		return usageErrorf("%v", err)
	}
	seed := o.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano()) % 1e9
	}
	so := &serveOptions{addr: o.addr}
	q := url.Values{"rules": {*o.rules}, "seed": {strconv.FormatUint(seed, 10)}}
	if env.IsRulesFile(*o.rules) {
		so.cfg.Models = append(so.cfg.Models, *o.rules)
		q.Set("rules", "models0")
	}
	if o.position != "" {
		q.Set("start", o.position)
	}
	seats := [2]string{"human", "human"}
	if o.opponent != "human" {
		if err := agents.Validate(o.opponent); err != nil {
			return usageErrorf("--opponent: %v", err)
		}
		// The files the opponent reads (a checkpoint, a table), as its agent
		// declares them, are served; a program it runs is allowed, since
		// the person asked for it on the command line.
		if in, err := agents.Inspect(o.opponent); err == nil {
			so.cfg.Models = append(so.cfg.Models, in.AllFiles()...)
			so.cfg.AllowExternal = in.RunsPrograms()
		}
		side, err := o.yourSide(seed)
		if err != nil {
			return err
		}
		seats[1-side] = o.opponent
	}
	q.Set("south", seats[0])
	q.Set("north", seats[1])
	page := "?" + q.Encode()
	return runServe(io, so, page, openBrowser)
}

// openBrowser opens url in the desktop's browser when there is a desktop;
// the address is printed anyway.
func openBrowser(url string) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return
	}
	if p, err := exec.LookPath("xdg-open"); err == nil {
		cmd := exec.Command(p, url)
		if cmd.Start() == nil {
			go cmd.Wait()
		}
	}
}
