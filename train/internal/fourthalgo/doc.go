// Package fourthalgo holds, in its test, a fourth training algorithm that
// neither the run core (package train) nor the cluster (package
// train/cluster) knows: it registers from outside them with a config
// section of its own and a distributed mode (a train.RemotePart), and a
// run of it goes through the cluster's learner and a worker on an embedded
// NATS server, its self-play and its in-run evaluation played by the
// worker. Adding it touched no file of either package.
package fourthalgo
