package train

import (
	"reflect"

	"gopkg.in/yaml.v3"
)

var typeOfConfig = reflect.TypeOf(Config{})

// yamlUnmarshal decodes a stored effective config (already checked when it
// was written).
func yamlUnmarshal(data []byte, c *Config) error {
	*c = Default()
	return yaml.Unmarshal(data, c)
}

// topLevel returns each top-level key of c with its value as YAML.
func topLevel(c Config) map[string][]byte {
	out := map[string][]byte{}
	data, err := yaml.Marshal(c)
	if err != nil {
		return out
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return out
	}
	for k, v := range m {
		out[k], _ = yaml.Marshal(v)
	}
	return out
}
