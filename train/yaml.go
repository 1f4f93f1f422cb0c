package train

import (
	"gopkg.in/yaml.v3"
)

// yamlUnmarshal decodes a stored effective config (already checked when it
// was written), through the schema of the registered sections.
func yamlUnmarshal(data []byte, c *Config) error {
	def := Default()
	var head struct {
		Algorithm string `yaml:"algorithm"`
	}
	if yaml.Unmarshal(data, &head) == nil && head.Algorithm != "" {
		def.Algorithm = head.Algorithm
	}
	// Leniently, into the algorithm's schema: the sections of others (in a
	// config.yaml written before one schema per algorithm) are skipped.
	sv := def.schemaValue()
	err := yaml.Unmarshal(data, sv.Interface())
	*c = fromSchema(sv, def)
	return err
}

// topLevel returns each top-level key of c with its value as YAML.
func topLevel(c Config) map[string][]byte {
	out := map[string][]byte{}
	data, err := yaml.Marshal(c.schemaValue().Interface())
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
