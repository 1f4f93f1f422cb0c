package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/urim-rl/urim/env"
)

func init() {
	register(&command{
		name:  "replay",
		usage: "[--rules PRESET] [--moves 0,3,5,...] [--position NOTATION]",
		short: "replay games given as action lists and print every position as JSON Lines",
		long: `Replays games given as actions separated by commas or spaces (relative pit
indices 0..P-1 of the player to move; the moves column of games.csv works as
it is) and prints one JSON object per position, the start included:

(the schema is env.PositionRecord)

  game          0-based line number of the game
  ply           moves played so far
  player        player to move (0 South, 1 North)
  action        the action that led here (absent at ply 0)
  pits          the 2P pits in absolute order (South 0..P-1, North P..2P-1)
  stores        [South, North]
  legal         legal actions of the player to move
  terminal      whether the game has ended
  reason        why it ended (terminal positions only): no_legal_move,
                repetition, majority or ply_cap
  winner        0, 1, or -1 for a draw (terminal positions only)
  match_points  [South, North] (terminal positions only)

On a terminal position the rows have been emptied into their owners' stores,
as the rules do at the end, so the stores sum to T.

Without --moves, games are read from standard input, one per line; blank lines
are skipped but still counted. An illegal or out-of-range action, or a move
after the end, prints an error naming the game, ply and action on standard
error and exits with status 1, after the lines of the positions before it.

Examples:
  urim replay --rules oware --moves 3,2,5,0
  printf '0,1,2\n5,5\n' | urim replay --rules urim
  urim replay --moves 5 --position '3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0'`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			rules := rulesFlag(fs)
			moves := fs.String("moves", "", "one game as actions separated by commas or spaces (not given: read games from standard input; empty: an error)")
			position := fs.String("position", "", "start every game from this position (notation, see docs/rules.md)")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q (give moves with --moves or on standard input)", args)
				}
				g, err := loadGame(*rules)
				if err != nil {
					return err
				}
				start, err := startPosition(g, *position)
				if err != nil {
					return err
				}
				var game *string // --moves, if given
				if flagGiven(fs, "moves") {
					game = moves
				}
				if game != nil && strings.TrimSpace(*game) == "" {
					return usageErrorf("--moves is empty: give actions such as --moves 0,3,5, or leave --moves out to read games from standard input")
				}
				return runReplay(io, start, game)
			}
		},
	})
}

// runReplay prints the positions of the game moves gives, or with moves
// nil of every game on standard input, one a line.
func runReplay(io *stdio, start env.State, moves *string) error {
	w := bufio.NewWriter(io.out)
	defer w.Flush()
	if moves != nil {
		return replayGame(w, start, 0, *moves)
	}
	sc := bufio.NewScanner(io.in)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for line := 0; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if err := replayGame(w, start, line, text); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading standard input: %w", err)
	}
	return nil
}

// replayGame prints the positions of one game given as comma-separated
// actions.
func replayGame(w *bufio.Writer, start env.State, game int, moves string) error {
	enc := json.NewEncoder(w)
	s := start
	if err := enc.Encode(env.NewPositionRecord(game, &s, nil)); err != nil {
		return err
	}
	for _, tok := range splitMoves(moves) {
		a, err := strconv.Atoi(tok)
		if err != nil {
			return fmt.Errorf("game %d, ply %d: action %s is not a number", game, s.Ply(), quoteShort(tok))
		}
		next, err := s.Apply(a)
		if err != nil {
			return fmt.Errorf("game %d, ply %d, action %d: %v", game, s.Ply(), a, err)
		}
		s = next
		if err := enc.Encode(env.NewPositionRecord(game, &s, &a)); err != nil {
			return err
		}
	}
	return nil
}

// splitMoves splits a move list on commas, spaces or both, so the moves of
// games.csv (space-separated) and of printed replay lines (commas) both
// work.
func splitMoves(moves string) []string {
	return strings.FieldsFunc(moves, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// quoteShort quotes a token for an error message, cut to its first 40
// bytes: a 10 MB bad token is not echoed in full.
func quoteShort(tok string) string {
	const max = 40
	if len(tok) <= max {
		return strconv.Quote(tok)
	}
	return fmt.Sprintf("%q… (%d bytes)", strings.ToValidUTF8(tok[:max], ""), len(tok))
}
