package env

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// MaxPitsPerRow is the largest board the engine plays: 2×7.
const MaxPitsPerRow = 7

// MaxActions is the largest number of actions (pits per row) of any rules.
const MaxActions = MaxPitsPerRow

// RulesVersion is bumped whenever the engine's behaviour for some Rules value
// changes (never for refactors or speed-ups). Datasets and checkpoints record
// it.
const RulesVersion = 1

// GrandSlam says what happens to a capture that would empty the opponent's
// whole row.
type GrandSlam string

const (
	// GrandSlamCapture lets the capture stand (Urim's rule).
	GrandSlamCapture GrandSlam = "capture"
	// GrandSlamNoCapture makes the move legal but capture nothing (Abapa,
	// OpenSpiel's oware).
	GrandSlamNoCapture GrandSlam = "no_capture"
)

// Rules describes a variant. The zero value is not valid; start from a preset
// or fill every field. Every Rules value reaches the engine through
// [Rules.Validate], whether it is a preset or read from a YAML config.
type Rules struct {
	// Name is informational: the preset name, or whatever a config calls it.
	Name string `yaml:"name" json:"name"`
	// PitsPerRow is P, the number of pits in each row: 2 to 7.
	PitsPerRow int `yaml:"pits_per_row" json:"pits_per_row"`
	// SeedsPerPit is S, the seeds in every pit at the start: 1 to 12.
	SeedsPerPit int `yaml:"seeds_per_pit" json:"seeds_per_pit"`
	// Capacity is C, the most seeds a pit may hold; sowing skips a full pit.
	// 0 means no limit.
	Capacity int `yaml:"capacity" json:"capacity"`
	// Trigger lists the counts that start a capture when the last seed makes
	// them in an opponent's pit (2 and 3 in every preset).
	Trigger []int `yaml:"trigger" json:"trigger"`
	// Chain lists the counts that extend a capture backwards through the
	// opponent's row (2, 3, 4 in Urim; 2, 3 in oware). Empty means a capture
	// takes the triggering pit only.
	Chain []int `yaml:"chain" json:"chain"`
	// GrandSlam says what a capture that empties the opponent's row does.
	GrandSlam GrandSlam `yaml:"grand_slam" json:"grand_slam"`
	// EndOnMajority ends the game as soon as one store holds more than half
	// the seeds, or both hold exactly half (oware).
	EndOnMajority bool `yaml:"end_on_majority" json:"end_on_majority"`
	// MaxPlies caps the game length; a game reaching it is truncated (not
	// terminated) and scored as if it had ended. 0 means no cap.
	MaxPlies int `yaml:"max_plies" json:"max_plies"`
}

// The rule presets of docs/rules.md.
var (
	// Urim is the default: 2×6, 3 seeds, capacity 17, trigger 2–3, chain 2–4.
	Urim = Rules{Name: "urim", PitsPerRow: 6, SeedsPerPit: 3, Capacity: 17,
		Trigger: []int{2, 3}, Chain: []int{2, 3, 4}, GrandSlam: GrandSlamCapture}
	// Urim7 is Urim on the 2×7 board.
	Urim7 = Rules{Name: "urim7", PitsPerRow: 7, SeedsPerPit: 3, Capacity: 17,
		Trigger: []int{2, 3}, Chain: []int{2, 3, 4}, GrandSlam: GrandSlamCapture}
	// Urim4 is the ancestral 4-seed board.
	Urim4 = Rules{Name: "urim4", PitsPerRow: 6, SeedsPerPit: 4, Capacity: 17,
		Trigger: []int{2, 3}, Chain: []int{2, 3, 4}, GrandSlam: GrandSlamCapture}
	// Oware is Abapa as OpenSpiel's oware plays it, kept to cross-check the
	// engine move for move.
	Oware = Rules{Name: "oware", PitsPerRow: 6, SeedsPerPit: 4, Capacity: 0,
		Trigger: []int{2, 3}, Chain: []int{2, 3}, GrandSlam: GrandSlamNoCapture,
		EndOnMajority: true}
)

var presets = map[string]*Rules{"urim": &Urim, "urim7": &Urim7, "urim4": &Urim4, "oware": &Oware}

// PresetNames lists the presets in a stable order, the default first.
func PresetNames() []string { return []string{"urim", "urim7", "urim4", "oware"} }

// ErrUnknownPreset is returned for a preset name that does not exist.
var ErrUnknownPreset = errors.New("env: unknown rules preset")

// PresetRules returns a copy of the named preset.
func PresetRules(name string) (Rules, error) {
	r, ok := presets[name]
	if !ok {
		return Rules{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownPreset, name, strings.Join(PresetNames(), ", "))
	}
	c := *r
	c.Trigger = append([]int(nil), r.Trigger...)
	c.Chain = append([]int(nil), r.Chain...)
	return c, nil
}

// Total is T, the number of seeds in play: 2·P·S.
func (r Rules) Total() int { return 2 * r.PitsPerRow * r.SeedsPerPit }

// RulesError reports an invalid Rules value; Field names the offending field
// by its YAML key.
type RulesError struct {
	Field string
	Msg   string
}

func (e *RulesError) Error() string { return "env: invalid rules: " + e.Field + ": " + e.Msg }

// Validate reports the first problem with r, or nil.
func (r Rules) Validate() error {
	bad := func(field, format string, args ...any) error {
		return &RulesError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if r.PitsPerRow < 2 || r.PitsPerRow > MaxPitsPerRow {
		return bad("pits_per_row", "%d is out of range (2 to %d)", r.PitsPerRow, MaxPitsPerRow)
	}
	if r.SeedsPerPit < 1 || r.SeedsPerPit > 12 {
		return bad("seeds_per_pit", "%d is out of range (1 to 12)", r.SeedsPerPit)
	}
	if r.Capacity < 0 {
		return bad("capacity", "%d is negative (0 means no limit)", r.Capacity)
	}
	if r.Capacity > 0 {
		if r.Capacity < r.SeedsPerPit {
			return bad("capacity", "%d is below seeds_per_pit %d: the start position would overflow", r.Capacity, r.SeedsPerPit)
		}
		// A move must always find room: the other 2P-1 pits must hold every seed.
		if (2*r.PitsPerRow-1)*r.Capacity < r.Total() {
			return bad("capacity", "%d is too small: %d pits cannot hold %d seeds", r.Capacity, 2*r.PitsPerRow-1, r.Total())
		}
	}
	if len(r.Trigger) == 0 {
		if len(r.Chain) > 0 {
			return bad("trigger", "chain %v is set but trigger counts are missing: a chain only extends a triggered capture", r.Chain)
		}
		return bad("trigger", "no trigger counts: list the counts that start a capture, e.g. [2, 3]")
	}
	if err := checkCounts("trigger", r.Trigger, r.Total()); err != nil {
		return err
	}
	if err := checkCounts("chain", r.Chain, r.Total()); err != nil {
		return err
	}
	if r.GrandSlam != GrandSlamCapture && r.GrandSlam != GrandSlamNoCapture {
		return bad("grand_slam", "%q is not %q or %q", r.GrandSlam, GrandSlamCapture, GrandSlamNoCapture)
	}
	if r.MaxPlies < 0 {
		return bad("max_plies", "%d is negative (0 means no cap)", r.MaxPlies)
	}
	return nil
}

func checkCounts(field string, counts []int, total int) error {
	seen := map[int]bool{}
	for _, c := range counts {
		if c < 1 || c > total || c > 63 {
			return &RulesError{Field: field, Msg: fmt.Sprintf("count %d is out of range (1 to %d)", c, min(total, 63))}
		}
		if seen[c] {
			return &RulesError{Field: field, Msg: fmt.Sprintf("count %d is listed twice", c)}
		}
		seen[c] = true
	}
	return nil
}

// String describes r in one line.
func (r Rules) String() string {
	capacity := "none"
	if r.Capacity > 0 {
		capacity = fmt.Sprint(r.Capacity)
	}
	s := fmt.Sprintf("%s: 2x%d, %d seeds (T=%d), capacity %s, trigger %s, chain %s, grand slam %s",
		r.Name, r.PitsPerRow, r.SeedsPerPit, r.Total(), capacity, joinInts(r.Trigger), joinInts(r.Chain), r.GrandSlam)
	if r.EndOnMajority {
		s += ", ends on majority"
	}
	if r.MaxPlies > 0 {
		s += fmt.Sprintf(", max %d plies", r.MaxPlies)
	}
	return s
}

func joinInts(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	c := append([]int(nil), v...)
	sort.Ints(c)
	parts := make([]string, len(c))
	for i, x := range c {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}
