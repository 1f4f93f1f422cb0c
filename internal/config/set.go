package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"
)

// Set applies one override written "key.path=value" (the argument of a
// --set flag) to dst, a non-nil pointer to a struct: the path names fields
// by their yaml keys, nested structs joined by dots ("optimizer.lr=3e-4"),
// and the value is read as YAML with the checks of [Decode] (an integer
// field takes only an integer, a number must be finite, a list is written
// [a, b]). Set does not call Validate: callers validate once every override
// is applied. Errors are [*Error] values naming the key.
func Set(dst any, assignment string) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic(fmt.Sprintf("config: Set on %T, want a non-nil pointer", dst))
	}
	key, value, ok := strings.Cut(assignment, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return &Error{Key: key, Err: fmt.Errorf("%q is not key=value", assignment)}
	}
	v := rv.Elem()
	path := ""
	for _, part := range strings.Split(key, ".") {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			return &Error{Key: key, Err: fmt.Errorf("%s has no keys below it", path)}
		}
		f, ok := fieldByKey(v, part)
		if !ok {
			return &Error{Key: join(path, part), Err: fmt.Errorf("unknown key (known: %s)", strings.Join(fieldNames(v.Type()), ", "))}
		}
		v, path = f, join(path, part)
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(value), &root); err != nil {
		return yamlError(err, "", nil).(*Error).withKey(key)
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) == 0 {
		return &Error{Key: key, Err: errors.New("no value after '='")}
	}
	n := root.Content[0]
	if err := (walker{}).check(n, v.Type(), key); err != nil {
		return err
	}
	if err := n.Decode(v.Addr().Interface()); err != nil {
		return yamlError(err, "", nil).(*Error).withKey(key)
	}
	return nil
}

func (e *Error) withKey(key string) *Error {
	e.Key, e.Line = key, 0
	return e
}

// fieldByKey returns the field of struct v whose yaml key is key, looking
// into ",inline" fields.
func fieldByKey(v reflect.Value, key string) (reflect.Value, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name, inline, skip := yamlName(t.Field(i))
		switch {
		case skip:
		case inline:
			f := v.Field(i)
			for f.Kind() == reflect.Pointer {
				if f.IsNil() {
					f.Set(reflect.New(f.Type().Elem()))
				}
				f = f.Elem()
			}
			if f.Kind() == reflect.Struct {
				if g, ok := fieldByKey(f, key); ok {
					return g, true
				}
			}
		case name == key:
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}
