// Package evidence holds structs whose hot members share a line, some
// with evidence of false sharing and some without. A finding needs
// evidence: a function that writes one member and not the other, or that
// reads a member without writing the hot one beside it. The expectations
// hold on every GOARCH, so the package is checked with
// -falsesharing.arch=amd64 and with amd64,arm64.
package evidence

import "sync/atomic"

// Pair's two atomics are always written together by one function, so
// the line they share carries no extra traffic: true sharing, clean.
type Pair struct {
	sent, bytes atomic.Int64
}

func (p *Pair) Record(n int64) {
	p.sent.Add(1)
	p.bytes.Add(n)
}

func (p *Pair) Snapshot() (int64, int64) { return p.sent.Load(), p.bytes.Load() }

// Named's hot counter sits beside a name that is set once and never read:
// nobody misses on name, so there is no finding.
type Named struct {
	requests atomic.Int64
	name     string
}

func NewNamed(name string) *Named { return &Named{name: name} }

func (n *Named) Inc() { n.requests.Add(1) }

// Config is read only by the function that also writes the counter
// beside it: that function owns the line anyway, clean.
type Config struct {
	calls atomic.Int64
	max   int64
}

func (c *Config) Call() bool { return c.calls.Add(1) <= c.max }

// Plain has members written by different functions but nothing that is
// accessed concurrently: no atomics, locks or directives, so nothing to
// report.
type Plain struct {
	a, b int64
}

func (p *Plain) SetA(v int64) { p.a = v }
func (p *Plain) SetB(v int64) { p.b = v }

// Spawned's two counters are written in one function declaration, but
// one of them inside a function literal run on another goroutine: the
// literal is a writer of its own, so they are written independently.
type Spawned struct {
	started  atomic.Int64 // want `started shares a line with finished \(.*\), and \(\*Spawned\)\.Go updates started while the goroutine started in \(\*Spawned\)\.Go updates finished: false sharing; put them on separate lines \(FS2, proven\)`
	finished atomic.Int64
}

func (s *Spawned) Go(f func()) {
	s.started.Add(1)
	go func() {
		f()
		s.finished.Add(1)
	}()
}
