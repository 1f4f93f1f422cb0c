package nn

import "fmt"

// HeadLoss is a loss the caller computes from the network's heads, for
// training methods whose loss is not the built-in policy cross-entropy plus
// value error (policy-gradient methods such as PPO, say). Given rows×actions
// raw logits and rows values (after the tanh, in [-1, 1]), it writes the
// gradient of the loss with respect to each logit into dlogits and with
// respect to each value into dvalues (both laid out like their inputs, and
// holding stale numbers on entry: every entry must be written), and returns
// the loss. The slices alias the trainer's buffers: they must not be kept.
type HeadLoss func(logits, values []float32, rows, actions int, dlogits, dvalues []float32) float64

// GradientsLoss runs the network on rows observations (row-major
// rows×InputDim), hands the heads to loss and back-propagates the gradients
// loss wrote, leaving the parameters' gradients in Grads. It returns what
// loss returned and does not update the weights.
func (t *Trainer) GradientsLoss(obs []float32, rows int, loss HeadLoss) float64 {
	n, ws := t.net, t.ws
	if rows < 1 || rows > ws.maxRows {
		panic(fmt.Sprintf("nn: batch of %d rows is outside 1..%d", rows, ws.maxRows))
	}
	if len(obs) < rows*n.inDim {
		panic(fmt.Sprintf("nn: batch of %d rows has %d observation entries (want %d)", rows, len(obs), rows*n.inDim))
	}
	t.packWeights(true)
	ws.rows = rows
	ws.x[0] = obs[:rows*n.inDim]
	t.pool.do(&t.fwd, ws.blocks(rows))
	g := &n.g
	l := loss(ws.x[g.policy][:rows*n.actions], ws.x[g.value][:rows], rows, n.actions,
		ws.dx[g.policy][:rows*n.actions], ws.dx[g.value][:rows])
	if g.score >= 0 {
		clear(ws.dx[g.score][:rows]) // a caller's loss does not train the score head
	}
	n.backward(&t.bwd, t.pool)
	ws.x[0] = nil
	return l
}

// StepLoss takes one training step with a caller's loss: GradientsLoss, then
// gradient clipping and an AdamW update at the schedule's learning rate, as
// Step does. The returned stats hold the loss in Loss, the gradient norm,
// the learning rate and the step count; the other loss figures are the
// caller's to compute.
func (t *Trainer) StepLoss(obs []float32, rows int, loss HeadLoss) StepStats {
	st := StepStats{LossStats: LossStats{Loss: t.GradientsLoss(obs, rows, loss)}}
	t.update(&st)
	return st
}
