package dataset

// Margin returns the game's final seed margin for player p (0 South, 1
// North) over the rules' seeds T: (p's final seeds − the opponent's) / T, in
// [-1, 1], the score target of a network with a score head (nn.Arch.Score).
// It is what the seed_margin reward gives p, from the record's stores. A
// resigned game's stores are the seeds captured by then: the seeds left on
// the board count for the winner, whom the resigner concedes them to.
// Datasets store no margins: a training run computes each row's from its
// game's record, the mover of a row being South at even plies.
func (r *Record) Margin(p int) float32 {
	total := r.Rules.Total()
	if total <= 0 || p < 0 || p > 1 {
		return 0
	}
	f := r.Stores
	if r.Reason == Resigned && (r.Winner == 0 || r.Winner == 1) {
		f[r.Winner] += total - f[0] - f[1]
	}
	return float32(f[p]-f[1-p]) / float32(total)
}

// Margins writes into dst the margin (Record.Margin) of the mover of each
// row of the game rec whose plies are ply: South at even plies, North at
// odd ones. dst and ply have one entry a row.
func (r *Record) Margins(dst []float32, ply []int32) {
	m := [2]float32{r.Margin(0), r.Margin(1)}
	for i, k := range ply[:len(dst)] {
		dst[i] = m[k&1]
	}
}
