package train

// progress returns a callback for done of total units, reported on
// Options.Progress (a bar on a terminal, plain lines otherwise).
func (r *run) progress(desc, unit string) func(done, total int) {
	return r.opt.Progress.Func(desc, unit)
}
