package train

// Progress returns a callback for done of total units, reported on
// Options.Progress (a bar on a terminal, plain lines otherwise).
func (s *Session) Progress(desc, unit string) func(done, total int) {
	return s.opt.Progress.Func(desc, unit)
}
