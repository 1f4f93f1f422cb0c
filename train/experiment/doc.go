// Package experiment compares training recipes: a sweep (urim sweep) runs
// every combination of a grid of config values, each with several seeds,
// as normal training run directories, rates every final network against
// one fixed panel of agents with one shared game store, and writes a
// summary: summary.csv (one row per run), report.md (the mean and a 95%
// interval per cell) and elo.png (the in-run Elo against training time per
// cell, with a band over the seeds).
//
// A sweep is resumable: its plan is fixed in sweep.json when it starts,
// every run is a run directory that resumes after kill -9 like any other,
// a finished run is marked done and skipped, and the rating games are
// kept in the store. Run the same command again to continue.
//
// "Sweep" means this and only this in the project: the endgame table's
// solver works in rounds, the web board's analysis of every position is the
// whole-game analysis, and a pairing one agent won in every game is a
// shutout ([evaluate.Shutout]).
//
// Runs execute through a [Runner]: [Local] trains in this process, one
// after another or several at once; the distributed workers (issue 19)
// plug in as another Runner.
package experiment
