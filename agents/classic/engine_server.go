package classic

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// ProtocolVersion is the version of the line protocol of docs/protocol.md
// that [Serve] speaks and the external agent expects.
const ProtocolVersion = 1

// Serve answers the urim line protocol (docs/protocol.md) read from r,
// writing one reply line per command to w, with the agent built from spec.
// The session starts with an agent seeded with seed; each new game rebuilds
// it with the seed given by "newgame seed=N", or else seed plus the number of
// games started so far. Serve returns nil after "quit" or at the end
// of r, and an error only when reading or writing fails; bad commands, and
// lines longer than [MaxLineBytes], get an "error ..." reply and the session
// goes on.
func Serve(r io.Reader, w io.Writer, spec string, seed uint64) error {
	return serve(r, w, spec, seed, MaxLineBytes)
}

// serve is Serve with another line limit, so tests reach it with short
// lines.
func serve(r io.Reader, w io.Writer, spec string, seed uint64, maxLine int) error {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return err
	}
	if err := agents.Validate(spec); err != nil {
		return err
	}
	srv := &server{spec: sp, seed: seed, gameSeed: seed, agents: map[string]agents.Agent{}}
	srv.game = env.MustGame(env.Urim)
	srv.state = srv.game.Start()
	defer srv.dropAgents()

	lr := newLineReader(r, maxLine)
	bw := bufio.NewWriter(w)
	for {
		line, err := lr.next(true)
		var reply string
		var quit bool
		switch {
		case errors.Is(err, errLineTooLong):
			if head := strings.TrimSpace(line); head == "" || strings.HasPrefix(head, "#") {
				continue // a comment, however long, gets no reply
			}
			reply = fmt.Sprintf("error line longer than %d bytes (the protocol's limit)", maxLine)
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		default:
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			reply, quit = srv.handle(line)
		}
		if _, err := bw.WriteString(reply + "\n"); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		if quit {
			return nil
		}
	}
}

// server is the state of one protocol session.
type server struct {
	spec   agents.Spec
	seed   uint64
	gameNo uint64
	// gameSeed seeds the agents of the current game.
	gameSeed uint64
	game     *env.Game
	state    env.State
	// agents caches one agent per set of go options ("" for none), so an
	// agent keeps its tree between the moves of a game.
	agents map[string]agents.Agent
}

var serverCommands = []string{"urim", "rules", "newgame", "position", "moves", "legal", "go", "show", "quit"}

// handle runs one command and returns the reply line and whether to stop.
func (s *server) handle(line string) (reply string, quit bool) {
	f := strings.Fields(line)
	cmd, args := f[0], f[1:]
	var err error
	switch cmd {
	case "urim":
		if len(args) == 0 || args[0] != strconv.Itoa(ProtocolVersion) {
			return fmt.Sprintf("error protocol version %q not supported (this engine speaks urim %d)", strings.Join(args, " "), ProtocolVersion), false
		}
		return fmt.Sprintf("ok urim %d %s", ProtocolVersion, s.spec), false
	case "rules":
		err = s.rules(args)
	case "newgame":
		err = s.newGame(args)
	case "position":
		if err = s.position(strings.TrimSpace(strings.TrimPrefix(line, "position"))); err == nil {
			return s.stateReply(nil), false
		}
	case "moves":
		var last *int
		if last, err = s.moves(args); err == nil {
			return s.stateReply(last), false
		}
	case "legal":
		if len(args) > 0 {
			err = fmt.Errorf("legal takes no arguments, got %q", strings.Join(args, " "))
			break
		}
		return strings.TrimSpace("ok " + joinActions(s.state.Legal().Actions(), " ")), false
	case "go":
		return s.search(args), false
	case "show":
		return "ok " + s.state.String(), false
	case "quit":
		return "ok bye", true
	default:
		err = fmt.Errorf("unknown command %q (known: %s)", cmd, strings.Join(serverCommands, ", "))
	}
	if err != nil {
		return "error " + oneLine(err.Error()), false
	}
	return "ok", false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// rules sets the rules from a preset name or key=value pairs, and starts a
// new game under them.
func (s *server) rules(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("rules: name a preset (%s) or give key=value pairs", strings.Join(env.PresetNames(), ", "))
	}
	r, err := env.ParseRulesLine(strings.Join(args, " "))
	if err != nil {
		return err
	}
	g, err := env.NewGame(r)
	if err != nil {
		return err
	}
	s.game = g
	return s.newGame(nil)
}

// newGame resets the position to the start and drops the agents, which are
// rebuilt with the new game's seed.
func (s *server) newGame(args []string) error {
	s.gameNo++
	s.gameSeed = s.seed + s.gameNo
	if len(args) > 1 {
		return fmt.Errorf("newgame: want at most one seed=N, got %q", strings.Join(args, " "))
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok || k != "seed" {
			return fmt.Errorf("newgame: %q is not seed=N", a)
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("newgame: seed %q is not a whole number from 0 to 18446744073709551615", v)
		}
		s.gameSeed = n
	}
	s.dropAgents()
	s.state = s.game.Start()
	return nil
}

func (s *server) dropAgents() {
	for k, a := range s.agents {
		_ = agents.Close(a)
		delete(s.agents, k)
	}
}

// position sets the position: "startpos" or urim notation.
func (s *server) position(text string) error {
	if text == "" || text == "startpos" {
		s.state = s.game.Start()
		return nil
	}
	st, err := s.game.ParsePosition(text)
	if err != nil {
		return err
	}
	s.state = st
	return nil
}

// moves plays actions from the current position and returns the last one
// (nil for none); on an error the position is left unchanged.
func (s *server) moves(args []string) (*int, error) {
	st := s.state
	var last *int
	for i, txt := range args {
		a, err := strconv.Atoi(txt)
		if err != nil {
			return nil, fmt.Errorf("moves: %q (move %d) is not an action", txt, i+1)
		}
		next, err := st.Apply(a)
		if err != nil {
			return nil, fmt.Errorf("moves: move %d: %w", i+1, err)
		}
		st, last = next, &a
	}
	s.state = st
	return last, nil
}

// stateReply is the reply to position and moves: "ok" and the position as
// the JSON object of urim replay (env.PositionRecord), so a client learns
// the legal moves, the stores and the end of the game without the rules.
func (s *server) stateReply(action *int) string {
	b, err := json.Marshal(env.NewPositionRecord(0, &s.state, action))
	if err != nil {
		return "error " + oneLine(err.Error())
	}
	return "ok " + string(b)
}

func joinActions(actions []int, sep string) string {
	txt := make([]string, len(actions))
	for i, a := range actions {
		txt[i] = strconv.Itoa(a)
	}
	return strings.Join(txt, sep)
}

// search answers "go [key=value ...]" with "bestmove A" and, for agents that
// report their search, value, depth, nodes and pv fields.
func (s *server) search(args []string) string {
	if s.state.Terminal() {
		return fmt.Sprintf("error go: the game is over (%s)", s.state.Reason())
	}
	a, err := s.agentFor(args)
	if err != nil {
		return "error go: " + oneLine(err.Error())
	}
	view := s.state
	act, err := a.Act(&view)
	if err != nil {
		return "error go: " + oneLine(err.Error())
	}
	if err := agents.CheckAction(&s.state, act); err != nil {
		return "error go: " + oneLine(err.Error())
	}
	reply := fmt.Sprintf("bestmove %d", act)
	if sr, ok := a.(agents.Searcher); ok {
		info := sr.LastSearch()
		reply += fmt.Sprintf(" value=%g depth=%d nodes=%d", info.Value, info.Depth, info.Nodes)
		if len(info.PV) > 0 {
			reply += " pv=" + joinActions(info.PV, ".")
		}
	}
	return reply
}

// agentFor returns the agent for a set of go options: the spec's parameters
// overridden by the options. "time=N" with a bare number means N
// milliseconds.
func (s *server) agentFor(args []string) (agents.Agent, error) {
	params := map[string]string{}
	for k, v := range s.spec.Params {
		params[k] = v
	}
	seen := map[string]bool{}
	for _, opt := range args {
		k, v, ok := strings.Cut(opt, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("option %q is not key=value", opt)
		}
		if seen[k] {
			return nil, fmt.Errorf("option %s given twice", k)
		}
		seen[k] = true
		if k == "time" {
			if _, err := strconv.Atoi(v); err == nil {
				v += "ms"
			}
		}
		params[k] = v
	}
	spec := agents.Spec{Name: s.spec.Name, Params: params}.Canonical()
	if a, ok := s.agents[spec]; ok {
		return a, nil
	}
	a, err := agents.New(spec, s.gameSeed)
	if err != nil {
		return nil, err
	}
	agents.Reset(a)
	s.agents[spec] = a
	return a, nil
}
