package dataset

import (
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/config"
)

// Config is a self-play run: `urim selfplay` flags, or its YAML form
// (`urim selfplay --config FILE`), one key per field.
type Config struct {
	// Agent is the spec of the agent that plays (mcts:sims=100, say).
	Agent string `yaml:"agent" json:"agent"`
	// Opponent is the spec of the agent it plays against; empty means the
	// agent plays itself. Game i puts Agent in seat i mod 2.
	Opponent string `yaml:"opponent" json:"opponent"`
	// Games is the number of games in the dataset (a resumed run plays
	// those missing).
	Games int `yaml:"games" json:"games"`
	// Out is the dataset directory.
	Out string `yaml:"out" json:"out"`
	// Encoding is the observation encoding: compact (default) or
	// thermometer.
	Encoding string `yaml:"encoding" json:"encoding"`
	// ShardSize is the number of positions at which a shard is cut; 0
	// means DefaultShardPositions.
	ShardSize int `yaml:"shard_size" json:"shard_size"`
	// Seed seeds every game: game i's opening and agents derive from Seed
	// and i alone.
	Seed uint64 `yaml:"seed" json:"seed"`
	// Workers is the number of games played at once; 0 means one per core.
	// It does not change the dataset.
	Workers int `yaml:"workers" json:"workers"`
	// Openings is the number of random plies every game starts with (they
	// get no tensor rows); 0 starts from the start position.
	Openings int `yaml:"openings" json:"openings"`
	// Rules is a preset name (urim by default) or a YAML rules file.
	Rules string `yaml:"rules" json:"rules"`
	// Reward is what the outcome array holds for the mover: match_points
	// (default), win_loss or seed_margin.
	Reward string `yaml:"reward" json:"reward"`
	// GamesInLockstep is the number of games an az agent playing itself
	// plays in lock-step (one network batch for all their trees): games
	// [k·n, (k+1)·n) form group k, searched from a seed of Seed and k, so
	// the dataset depends on it but not on Workers. 0 means
	// DefaultGamesInLockstep; other agents ignore it.
	GamesInLockstep int `yaml:"games_in_lockstep" json:"games_in_lockstep,omitempty"`
}

// DefaultGames is the number of games of a self-play config that does not
// say (a file without games:, or urim selfplay without --games).
const DefaultGames = 100

// DefaultConfig returns the settings of urim selfplay's flags: DefaultGames
// games, compact encoding, seed 1, 4 random opening plies, rules urim, match
// points. (A config file starts from the zero Config but for Games: its
// omitted seed and openings are 0.)
func DefaultConfig() Config {
	return Config{Games: DefaultGames, Encoding: env.EncodingCompact.String(), Seed: 1, Openings: 4,
		Rules: "urim", Reward: env.RewardMatchPoints.String()}
}

// maxSelfPlayOpenings bounds Config.Openings, as in the evaluator.
const maxSelfPlayOpenings = 40

func cfgErr(key, format string, args ...any) *config.Error {
	return config.Errorf(key, format, args...)
}

// Validate fills in defaults (rules urim, compact encoding, match points)
// and reports the first bad value as a *config.Error naming the key. Agent specs are checked
// by building them once.
func (c *Config) Validate() error {
	if c.Rules == "" {
		c.Rules = "urim"
	}
	if c.Encoding == "" {
		c.Encoding = env.EncodingCompact.String()
	}
	if c.Reward == "" {
		c.Reward = env.RewardMatchPoints.String()
	}
	if strings.TrimSpace(c.Agent) == "" {
		return cfgErr("agent", "no agent spec (known agents: %s)", strings.Join(agents.Names(), ", "))
	}
	// With good rules, an agent's network must be for them
	// (agents.ValidateFor); bad rules are reported below.
	rules, rulesErr := c.LoadRules()
	validate := agents.Validate
	if rulesErr == nil {
		if g, err := env.NewGame(rules); err == nil {
			validate = func(spec string) error { return agents.ValidateFor(spec, g) }
		}
	}
	if err := validate(c.Agent); err != nil {
		return &config.Error{Key: "agent", Err: err}
	}
	if c.Opponent != "" {
		if err := validate(c.Opponent); err != nil {
			return &config.Error{Key: "opponent", Err: err}
		}
	}
	if c.Games <= 0 {
		return cfgErr("games", "%d: want at least 1", c.Games)
	}
	if c.Out == "" {
		return cfgErr("out", "no output directory")
	}
	if _, err := env.ParseEncoding(c.Encoding); err != nil {
		return &config.Error{Key: "encoding", Err: err}
	}
	if _, err := env.ParseRewardKind(c.Reward); err != nil {
		return &config.Error{Key: "reward", Err: err}
	}
	if c.ShardSize < 0 || c.ShardSize > MaxShardSize {
		return cfgErr("shard_size", "%d is out of range (0 to %d; 0: %d positions)", c.ShardSize, MaxShardSize, DefaultShardPositions)
	}
	if c.Workers < 0 {
		return cfgErr("workers", "%d is negative (0: one per core)", c.Workers)
	}
	if c.GamesInLockstep < 0 || c.GamesInLockstep > MaxGamesInLockstep {
		return cfgErr("games_in_lockstep", "%d is out of range (0 to %d; 0: %d)", c.GamesInLockstep, MaxGamesInLockstep, DefaultGamesInLockstep)
	}
	if c.Openings < 0 || c.Openings > maxSelfPlayOpenings {
		return cfgErr("openings", "%d is out of range (0 to %d)", c.Openings, maxSelfPlayOpenings)
	}
	if rulesErr != nil {
		return &config.Error{Key: "rules", Err: rulesErr}
	}
	if g, err := env.NewGame(rules); err != nil {
		return &config.Error{Key: "rules", Err: err}
	} else if err := g.CheckOpening(c.Openings); err != nil {
		return &config.Error{Key: "openings", Err: err}
	}
	return nil
}

// LoadRules returns the rules Config.Rules names: a preset, or a YAML file
// (see env.FindRules).
func (c *Config) LoadRules() (env.Rules, error) { return env.FindRules(c.Rules) }

// LoadConfig reads a self-play config from a YAML file; see [ParseConfig].
func LoadConfig(path string) (Config, error) {
	data, err := config.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(data, path)
}

// plainConfig is Config without its Validate method, so that decoding does
// not validate before the command line's overrides are applied.
type plainConfig Config

// ParseConfig decodes a self-play config strictly (internal/config): an
// unknown key, a key given twice or a value of the wrong type is an error
// naming the file, the line and the key. A file without games: plays
// DefaultGames. It does not validate; call [Config.Validate] after applying
// any overrides.
func ParseConfig(data []byte, file string) (Config, error) {
	cfg := plainConfig{Games: DefaultGames}
	err := config.DecodeBytes(data, file, &cfg)
	return Config(cfg), err
}
