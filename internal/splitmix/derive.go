package splitmix

// Derive mixes parts into seed: the seed's finaliser, then for each part the
// finaliser of the running value xor the part's finaliser. It is the seed
// derivation of the evaluator (game and agent seeds) and of the datasets
// (game, seat and opening seeds); equal parts in another order give another
// seed.
func Derive(seed uint64, parts ...uint64) uint64 {
	h := Mix(seed)
	for _, p := range parts {
		h = Mix(h ^ Mix(p))
	}
	return h
}

// Chain mixes parts into seed one finaliser step each, folding every part in
// hash-combine style (x ^ (p + γ + x<<6 + x>>2)); with no parts it returns
// seed itself. It is training's derivation (train.Derive), kept apart from
// [Derive] because the runs' golden records and resumes depend on its
// values.
func Chain(seed uint64, parts ...uint64) uint64 {
	x := seed
	for _, p := range parts {
		x = Mix(x ^ (p + 0x9E3779B97F4A7C15 + x<<6 + x>>2))
	}
	return x
}
