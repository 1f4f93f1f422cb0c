package evaluate

import (
	"fmt"
	"reflect"
	"runtime"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/config"
)

// Setup is what every series of games shares, a tournament ([Config]) or an
// SPRT test ([SPRTConfig]): the rules, the ply cap, the openings, the seed
// and the workers. Its YAML keys are those of a tournament config, and the
// urim commands' flags have the same names (max_plies is --max-plies).
//
// The zero value plays urim from the start position, unpaired, with seed 0;
// [DefaultSetup] holds the defaults that config files and commands start
// from.
type Setup struct {
	// Rules is a rules preset ("urim", "oware", …) or the path of a YAML
	// file of custom rules (docs/rules.md); "" means urim.
	Rules string `yaml:"rules" json:"rules"`
	// MaxPlies caps every game at this many plies (the game is then scored
	// as it stands); 0 keeps the rules' own cap.
	MaxPlies int `yaml:"max_plies" json:"max_plies,omitempty"`
	// OpeningPlies is the number of uniformly random plies every game starts
	// with, 0 to MaxOpeningPlies; 0 starts from the initial position.
	OpeningPlies int `yaml:"opening_plies" json:"opening_plies"`
	// Paired plays each opening twice with the seats swapped; game counts
	// must then be even.
	Paired bool `yaml:"paired" json:"paired"`
	// Seed determines every opening and every agent's seed.
	Seed uint64 `yaml:"seed" json:"seed"`
	// Workers is the number of games played at once; 0 means one per core
	// (GOMAXPROCS).
	Workers int `yaml:"workers" json:"workers,omitempty"`
	// Custom, when not nil, are the rules played, and Rules only labels
	// them: [Setup.LoadRules] sets it from a rules file, and a program may
	// set it to rules built in memory. Records of such games carry the whole
	// rules, so a store can check and reuse them.
	Custom *env.Rules `yaml:"-" json:"custom_rules,omitempty"`
}

// MaxOpeningPlies bounds Setup.OpeningPlies: longer random openings leave
// little of a game to measure.
const MaxOpeningPlies = 40

// DefaultSetup returns the defaults of config files and commands alike:
// urim, openings of 4 random plies played twice with the seats swapped,
// seed 1, one worker per core.
func DefaultSetup() Setup {
	return Setup{Rules: "urim", OpeningPlies: 4, Paired: true, Seed: 1}
}

// validate checks the values without touching files; it fills in Rules.
func (s *Setup) validate() error {
	if s.Rules == "" {
		s.Rules = "urim"
	}
	if s.Custom == nil && !env.IsRulesFile(s.Rules) {
		if _, err := env.PresetRules(s.Rules); err != nil {
			return config.Errorf("rules", "%v (or a .yaml file of custom rules)", err)
		}
	}
	if s.MaxPlies < 0 {
		return config.Errorf("max_plies", "%d is negative (0 keeps the rules' own cap)", s.MaxPlies)
	}
	if s.OpeningPlies < 0 || s.OpeningPlies > MaxOpeningPlies {
		return config.Errorf("opening_plies", "%d is out of range (0 to %d)", s.OpeningPlies, MaxOpeningPlies)
	}
	if s.Workers < 0 {
		return config.Errorf("workers", "%d is negative (0 means one per core)", s.Workers)
	}
	if s.Custom != nil || !env.IsRulesFile(s.Rules) { // rules known without reading a file
		if _, err := s.Game(); err != nil {
			return err
		}
	}
	return nil
}

// LoadRules reads the rules file named by Rules into Custom, if Rules names
// a file and Custom is not set yet. [RunTournament] and [RunSPRT] call it;
// commands call it early to report a bad file before anything runs.
func (s *Setup) LoadRules() error {
	if s.Custom != nil || !env.IsRulesFile(s.Rules) {
		return nil
	}
	r, err := env.LoadRules(s.Rules)
	if err != nil {
		return &config.Error{Key: "rules", Err: err}
	}
	s.Custom = &r
	return nil
}

// RulesValue returns the rules played, the ply cap applied. A rules file
// is read first if need be ([Setup.LoadRules]).
func (s *Setup) RulesValue() (env.Rules, error) {
	if err := s.LoadRules(); err != nil {
		return env.Rules{}, err
	}
	var r env.Rules
	if s.Custom != nil {
		r = *s.Custom
		r.Trigger = append([]int(nil), r.Trigger...)
		r.Chain = append([]int(nil), r.Chain...)
	} else {
		name := s.Rules
		if name == "" {
			name = "urim"
		}
		p, err := env.PresetRules(name)
		if err != nil {
			return r, &config.Error{Key: "rules", Err: err}
		}
		r = p
	}
	if s.MaxPlies > 0 {
		r.MaxPlies = s.MaxPlies
	}
	return r, nil
}

// Game compiles the rules played (see [Setup.RulesValue]).
func (s *Setup) Game() (*env.Game, error) {
	r, err := s.RulesValue()
	if err != nil {
		return nil, err
	}
	g, err := env.NewGame(r)
	if err != nil {
		return nil, &config.Error{Key: "max_plies", Err: err}
	}
	if err := g.CheckOpening(s.OpeningPlies); err != nil {
		return nil, &config.Error{Key: "opening_plies", Err: err}
	}
	return g, nil
}

func (s *Setup) workers() int {
	if s.Workers > 0 {
		return s.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// customRules returns rules r for a record when they are not a preset as it
// stands (ply cap aside), else nil: a record of custom rules carries them
// whole.
func customRules(r env.Rules) *env.Rules {
	p, err := env.PresetRules(r.Name)
	if err == nil {
		p.MaxPlies = r.MaxPlies
		if reflect.DeepEqual(p, r) {
			return nil
		}
	}
	return &r
}

// rulesKey is the rules part of a stored game's key: the preset name, or the
// whole custom rules.
func rulesKey(name string, custom *env.Rules) string {
	if custom == nil {
		return name
	}
	c := *custom
	c.MaxPlies = 0 // keyed apart
	return fmt.Sprintf("%s%+v", name, c)
}
