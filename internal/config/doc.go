// Package config is the one strict YAML decoder of urim: tournament configs,
// rules files and training configs all go through it, so a typo or a bad
// value is reported the same way everywhere, as FILE:LINE: KEY: problem.
//
// Decoding into a struct is strict:
//
//   - the known keys are derived from the struct's yaml tags (",inline"
//     structs included); an unknown key is an error that lists the allowed
//     ones (KataGo's typo check), and a key given twice is an error;
//   - an integer field takes only an integer: 7.9 is an error, never 7;
//   - a float field takes only a finite number: .nan and .inf are errors;
//   - a value of the wrong type (a list for a number, say) is an error;
//   - a file holds one YAML document: a second one ("---") is an error
//     rather than silently ignored, and an empty file is an error too.
//
// A destination that implements [Validator] is validated after decoding; a
// [*Error] it returns with a Key but no Line gets the file and the line of
// that key filled in, so checks written once in Go report positions too.
//
// [Set] applies one "key.path=value" override (a --set flag) with the same
// checks, for commands that let the command line amend a file.
package config
