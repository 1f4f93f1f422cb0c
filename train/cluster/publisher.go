package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// publisher publishes shards asynchronously, at most maxOutstanding
// waiting for their acknowledgement, publishing again (same id) a shard
// whose ack failed or timed out.
type publisher struct {
	js      jetstream.JetStream
	pending []*outShard
}

// outShard is a published shard not yet acknowledged.
type outShard struct {
	id    string
	msg   *nats.Msg
	fut   jetstream.PubAckFuture
	tries int
}

// send publishes msg as shard id, first waiting while maxOutstanding
// shards wait for their acks.
func (p *publisher) send(ctx context.Context, id string, msg *nats.Msg) error {
	if err := p.reap(ctx, maxOutstanding-1); err != nil {
		return err
	}
	s := &outShard{id: id, msg: msg}
	if err := p.publish(ctx, s); err != nil {
		return err
	}
	p.pending = append(p.pending, s)
	return nil
}

// publish (re)publishes s, retrying a publication refused at once (no
// connection, no responders).
func (p *publisher) publish(ctx context.Context, s *outShard) error {
	for {
		s.tries++
		fut, err := p.js.PublishMsgAsync(s.msg, jetstream.WithMsgID(s.id))
		if err == nil {
			s.fut = fut
			return nil
		}
		if s.tries >= maxTries {
			return fmt.Errorf("cluster: publish shard %s: %w", s.id, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// reap collects acknowledgements until at most keep shards wait for
// theirs (0: all acknowledged), republishing the failed ones.
func (p *publisher) reap(ctx context.Context, keep int) error {
	for len(p.pending) > 0 {
		s := p.pending[0]
		var wait <-chan time.Time
		if len(p.pending) <= keep {
			wait = closed // only what is already acknowledged
		}
		select {
		case <-s.fut.Ok():
			p.pending = p.pending[1:]
			continue
		case err := <-s.fut.Err():
			if s.tries >= maxTries {
				return fmt.Errorf("cluster: publish shard %s: %w", s.id, err)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(500 * time.Millisecond):
			}
			if err := p.publish(ctx, s); err != nil {
				return err
			}
			continue
		case <-ctx.Done():
			return ctx.Err()
		case <-wait:
			return nil
		}
	}
	return nil
}

// closed is a channel that is always ready.
var closed = func() <-chan time.Time {
	c := make(chan time.Time)
	close(c)
	return c
}()
