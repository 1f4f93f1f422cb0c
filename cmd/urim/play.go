package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/progress"
)

func init() {
	register(&command{
		name:  "play",
		usage: "[--rules PRESET] [--opponent SPEC] [--side south|north|random] [--seed N] [--position NOTATION]",
		short: "play in the terminal against another person or an agent",
		long: `Plays a game in the terminal. The board is drawn with North's row on top,
right to left, and South's row below, left to right, so seeds are sown
counter-clockwise. South's pits are lettered a-f from the left, North's A-F
from the right; each player types the letter of one of its own pits as it is
drawn (a letter of the other row is refused, not taken for the pit below or
above it), or its action number 0-5 as in 'urim replay'. A bad move is
refused with the reason and asked for again. 'help' explains, 'quit' stops.

With --opponent human (the default) two people share the terminal. Any agent
spec plays the other side against you; --side chooses yours. When the game
ends, the final stores, the winner and the match points are shown, with the
moves as a 'urim replay' command. Input may come from a script: prompts go to
standard output, and the end of input stops the game cleanly.

Agents:
  human      two people at one terminal
` + agents.Help() + `
Examples:
  urim play
  urim play --opponent mcts:sims=2000 --side north
  urim play --rules oware --opponent alphabeta:depth=8,time=2s
  urim play --web --opponent mcts:sims=2000       # in the browser
  printf 'c\nd\n' | urim play --opponent random --seed 1`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			o := &playOptions{}
			o.rules = rulesFlag(fs)
			fs.StringVar(&o.opponent, "opponent", "human", "agent spec of the other side, or human for two people at one terminal")
			fs.StringVar(&o.side, "side", "south", "your side against an agent: south (moves first), north or random")
			fs.Uint64Var(&o.seed, "seed", 0, "seed of the agent and of --side random (0: from the clock, and printed)")
			fs.StringVar(&o.position, "position", "", "start from this position (notation, see docs/rules.md)")
			fs.BoolVar(&o.web, "web", false, "play in the browser instead: serve the page of urim serve for this game (docs/web.md)")
			fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "with --web: the address to serve on (port 0 picks a free one)")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q (moves are typed once the game starts)", args)
				}
				if o.web {
					return runPlayWeb(io, o)
				}
				return runPlay(io, o)
			}
		},
	})
}

// playOptions are the flags of urim play.
type playOptions struct {
	rules                    *string
	opponent, side, position string
	seed                     uint64
	web                      bool   // --web: in the browser
	addr                     string // --addr of --web
}

// playSession is one game at the terminal.
type playSession struct {
	g     *env.Game
	s     env.State
	start string // --position text, for the replay line
	// rulesArg is the --rules value the game was loaded from (a preset or
	// a file), which the replay line repeats.
	rulesArg string
	agents   [2]agents.Agent // the agent of each side that no person plays
	human    [2]bool         // which sides people play
	names    [2]string       // "South (you)", "North (mcts:sims=1000)"
	in       *bufio.Scanner
	out      io.Writer
	moves    []int
	letter   [2]byte // 'a' for South, 'A' for North
}

// newPlaySession returns the game of the rules rulesArg (a preset or a
// file) from position (notation, "" for the start), its moves read from in
// and the board drawn on out; its sides are the caller's to fill in.
func newPlaySession(rulesArg, position string, in io.Reader, out io.Writer) (*playSession, error) {
	g, err := loadGame(rulesArg)
	if err != nil {
		return nil, err
	}
	s, err := startPosition(g, position)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	return &playSession{g: g, s: s, start: position, rulesArg: rulesArg, in: bufio.NewScanner(in), out: out, letter: [2]byte{'a', 'A'}}, nil
}

func runPlay(io *stdio, o *playOptions) error {
	p, err := newPlaySession(*o.rules, o.position, io.in, io.out)
	if err != nil {
		return err
	}
	g := p.g
	seed := o.seed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	p.human = [2]bool{true, true}
	p.names = [2]string{"South", "North"}
	if o.opponent != "human" {
		side, err := o.yourSide(seed)
		if err != nil {
			return err
		}
		a, err := agents.New(o.opponent, seed)
		if err != nil {
			return usageErrorf("--opponent: %v", err)
		}
		defer agents.Close(a)
		p.agents[1-side] = a
		p.human[1-side] = false
		p.names[side] += " (you)"
		p.names[1-side] += " (" + o.opponent + ")"
		fmt.Fprintf(io.out, "You play %s against %s (seed %d).\n", sideName(side), o.opponent, seed)
	}
	fmt.Fprintf(io.out, "Urim, %s rules. Type a pit letter, 'help' or 'quit'.\n", g.Name())
	return p.run()
}

// yourSide returns the side --side gives the person against an agent: 0
// South, 1 North, or drawn from the game's seed.
func (o *playOptions) yourSide(seed uint64) (int, error) {
	switch o.side {
	case "south":
		return 0, nil
	case "north":
		return 1, nil
	case "random":
		return int(seed>>17) & 1, nil
	}
	return 0, usageErrorf("--side %q: want south, north or random", o.side)
}

func sideName(p int) string { return [2]string{"South", "North"}[p] }

// errQuit is returned by a human player who quits or whose input ends.
var errQuit = errors.New("quit")

// run plays until the game ends, a player quits or the input ends. The game
// loop is agents.PlayGame: a person is an agent that asks at the terminal,
// and the hook reports each move and draws the board after it.
func (p *playSession) run() error {
	var players [2]agents.Agent
	for side := range players {
		if p.human[side] {
			players[side] = agents.Func(p.humanAct)
		} else {
			players[side] = p.agents[side]
		}
	}
	p.draw()
	s, err := agents.PlayGame(context.Background(), p.s, players, p.played)
	if errors.Is(err, errQuit) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p.names[p.s.ToMove()], err)
	}
	p.s = s
	p.result()
	return nil
}

// humanAct asks the person at the terminal for a move in s.
func (p *playSession) humanAct(s *env.State) (int, error) {
	p.s = *s
	a, ok := p.ask()
	if !ok {
		return 0, errQuit
	}
	return a, nil
}

// draw prints the board:
//
//	           F    E    D    C    B    A
//	        +----+----+----+----+----+----+
//	North   |  3 |  3 |  3 |  3 |  3 |  3 |   store  0
//	        +----+----+----+----+----+----+
//	South   |  3 |  3 |  3 |  3 |  3 |  3 |   store  0   <- to move
//	        +----+----+----+----+----+----+
//	           a    b    c    d    e    f
func (p *playSession) draw() {
	n := p.g.PitsPerRow()
	var b strings.Builder
	line := "        +" + strings.Repeat("----+", n) + "\n"
	labels := func(row int) {
		var l strings.Builder
		l.WriteString("        ")
		for i := 0; i < n; i++ {
			a := i
			if row == 1 {
				a = n - 1 - i
			}
			fmt.Fprintf(&l, "   %c ", p.letter[row]+byte(a))
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	pits := func(row int) {
		fmt.Fprintf(&b, "%-8s|", sideName(row))
		for i := 0; i < n; i++ {
			a := i
			if row == 1 {
				a = n - 1 - i
			}
			fmt.Fprintf(&b, " %2d |", p.s.Pit(row*n+a))
		}
		fmt.Fprintf(&b, "   store %2d", p.s.Store(row))
		if !p.s.Terminal() && p.s.ToMove() == row {
			b.WriteString("   <- to move")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	labels(1)
	b.WriteString(line)
	pits(1)
	b.WriteString(line)
	pits(0)
	b.WriteString(line)
	labels(0)
	fmt.Fprintf(p.out, "%sply %d\n", b.String(), p.s.Ply())
}

// ask prompts the human to move until a legal move is typed. It returns false
// when the player quits or the input ends.
func (p *playSession) ask() (int, bool) {
	mover := p.s.ToMove()
	for {
		fmt.Fprintf(p.out, "%s, your move [%s]: ", p.names[mover], p.legalLetters())
		if !p.in.Scan() {
			fmt.Fprintln(p.out)
			if err := p.in.Err(); err != nil {
				fmt.Fprintf(p.out, "Cannot read the input (%v); game abandoned at ply %d.\n", err, p.s.Ply())
			} else {
				fmt.Fprintf(p.out, "End of input; game abandoned at ply %d.\n", p.s.Ply())
			}
			p.replayLine()
			return 0, false
		}
		text := strings.TrimSpace(p.in.Text())
		switch strings.ToLower(text) {
		case "":
			continue
		case "q", "quit", "exit":
			fmt.Fprintf(p.out, "%s quits at ply %d.\n", sideName(mover), p.s.Ply())
			p.replayLine()
			return 0, false
		case "?", "h", "help":
			p.help()
			continue
		}
		a, err := p.parseMove(text)
		if err != nil {
			fmt.Fprintf(p.out, "%v. Try again.\n", err)
			continue
		}
		return a, true
	}
}

// parseMove reads a pit letter of the mover or an action number and checks
// that the move is legal, explaining why not.
func (p *playSession) parseMove(text string) (int, error) {
	n := p.g.PitsPerRow()
	mover := p.s.ToMove()
	a := -1
	if len(text) == 1 {
		c := text[0]
		switch {
		case c >= p.letter[mover] && c < p.letter[mover]+byte(n):
			a = int(c - p.letter[mover])
		case c >= p.letter[1-mover] && c < p.letter[1-mover]+byte(n):
			// The other side's label on the board: refuse rather than
			// play the mover's pit of the same letter in the other case.
			return 0, fmt.Errorf("%s is %s's pit; %s plays its own pits %c-%c (legal now: %s)",
				text, sideName(1-mover), sideName(mover), p.letter[mover], p.letter[mover]+byte(n-1), p.legalLetters())
		}
	}
	if a < 0 {
		v, err := strconv.Atoi(text)
		if err != nil || v < 0 || v >= n {
			return 0, fmt.Errorf("%q is not a move: type one of your pit letters (%c-%c) or an action number 0-%d",
				text, p.letter[mover], p.letter[mover]+byte(n-1), n-1)
		}
		a = v
	}
	if p.s.Legal().Has(a) {
		return a, nil
	}
	name := p.pitName(mover, a)
	if p.s.Pit(mover*n+a) == 0 {
		return 0, fmt.Errorf("pit %s is empty", name)
	}
	return 0, fmt.Errorf("pit %s does not reach %s's empty row, and you must give it seeds", name, sideName(1-mover))
}

func (p *playSession) pitName(player, a int) string {
	return fmt.Sprintf("%c", p.letter[player]+byte(a))
}

func (p *playSession) legalLetters() string {
	var parts []string
	for _, a := range p.s.Legal().Actions() {
		parts = append(parts, p.pitName(p.s.ToMove(), a))
	}
	return strings.Join(parts, " ")
}

// played is the game loop's hook: it makes the move on the session's
// board, says what it did and draws the board after it.
func (p *playSession) played(ev agents.MoveEvent) error {
	p.s = *ev.Before
	mover, a := ev.Player, ev.Action
	before := p.s.Store(mover)
	seeds := p.s.Pit(mover*p.g.PitsPerRow() + a)
	p.s.Play(a)
	p.moves = append(p.moves, a)
	msg := fmt.Sprintf("%s plays %s (%s)", p.names[mover], p.pitName(mover, a), progress.Count(seeds, "seeds"))
	if got := p.s.Store(mover) - before; got > 0 {
		msg += fmt.Sprintf(" and captures %d", got)
	}
	if ev.Search != nil && !p.human[mover] {
		msg += searchNote(*ev.Search, sideName(mover))
	}
	fmt.Fprintln(p.out, msg+".")
	p.draw()
	return nil
}

// searchNote summarises an agent's search in a few words. The value is the
// searcher's own (SearchInfo.Value is for the player who moved), so the
// note names that side.
func searchNote(info agents.SearchInfo, side string) string {
	var visits int
	for _, v := range info.Visits {
		visits += v
	}
	if visits > 0 {
		return fmt.Sprintf("; value %+.2f for %s after %d simulations", info.Value, side, info.Depth)
	}
	if info.Depth > 0 {
		return fmt.Sprintf("; value %+g for %s at depth %d", info.Value, side, info.Depth)
	}
	return ""
}

var endWhy = map[env.EndReason]string{
	env.EndNoLegalMove: "the player to move has no legal move",
	env.EndRepetition:  "a position repeated since the last capture",
	env.EndMajority:    "a store holds a majority",
	env.EndPlyCap:      "the ply cap was reached",
}

// result prints how the game ended.
func (p *playSession) result() {
	f := p.s.FinalStores()
	mp := p.s.MatchPoints()
	fmt.Fprintf(p.out, "Game over after %d plies: %s.\n", p.s.Ply(), endWhy[p.s.Reason()])
	fmt.Fprintf(p.out, "Final stores (each row added to its owner): South %d, North %d.\n", f[0], f[1])
	switch w := p.s.Winner(); w {
	case -1:
		fmt.Fprintf(p.out, "Draw. Match points: South %d, North %d.\n", mp[0], mp[1])
	default:
		fmt.Fprintf(p.out, "%s wins. Match points: South %d, North %d.\n", p.names[w], mp[0], mp[1])
	}
	p.replayLine()
}

// replayLine prints the moves as a urim replay command.
func (p *playSession) replayLine() {
	if len(p.moves) == 0 {
		return
	}
	parts := make([]string, len(p.moves))
	for i, a := range p.moves {
		parts[i] = strconv.Itoa(a)
	}
	rules := p.rulesArg
	if rules == "" {
		rules = p.g.Name()
	}
	cmd := fmt.Sprintf("urim replay --rules %s --moves %s", shellQuote(rules), strings.Join(parts, ","))
	if p.start != "" {
		cmd += " --position " + shellQuote(p.start)
	}
	fmt.Fprintf(p.out, "Moves: %s\n", cmd)
}

func (p *playSession) help() {
	n := p.g.PitsPerRow()
	r := p.g.Rules()
	fmt.Fprintf(p.out, `Each turn, type one of your own pits: South's are a-%c from the left of the
bottom row, North's A-%c from the right of the top row, as drawn, or the
action number 0-%d. The seeds are sown one by one counter-clockwise. A last
seed that makes %s in the opponent's row captures that pit, and the pits
before it holding %s too. 'quit' stops. Full rules: urim rules %s.
`, 'a'+byte(n-1), 'A'+byte(n-1), n-1, orList(r.Trigger), orList(r.Chain), p.g.Name())
}

// orList writes 2, 3 or 4.
func orList(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// shellQuote quotes s for a POSIX shell when it holds anything but letters,
// digits and -_./,:=+.
func shellQuote(s string) string {
	plain := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./,:=+", r)) {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
