package probe

import (
	"sync/atomic"
	"time"
)

// run executes the program's operations once.
func run(ops []op, v uint64) {
	for _, o := range ops {
		switch o.kind {
		case opLoad32:
			atomic.LoadUint32((*uint32)(o.addr))
		case opLoad64:
			atomic.LoadUint64((*uint64)(o.addr))
		case opStore32:
			atomic.StoreUint32((*uint32)(o.addr), uint32(v))
		case opStore64:
			atomic.StoreUint64((*uint64)(o.addr), v)
		case opAdd32:
			atomic.AddUint32((*uint32)(o.addr), 1)
		case opAdd64:
			atomic.AddUint64((*uint64)(o.addr), 1)
		case opCAS32:
			p := (*uint32)(o.addr)
			old := atomic.LoadUint32(p)
			atomic.CompareAndSwapUint32(p, old, old+1)
		case opCAS64:
			p := (*uint64)(o.addr)
			old := atomic.LoadUint64(p)
			atomic.CompareAndSwapUint64(p, old, old+1)
		}
		countOp(o.kind)
	}
}

// iterate runs one iteration of the program and reports how many times a
// seqlock reader had to retry.
func (p *program) iterate(v uint64) (retries uint64) {
	run(p.before, v)
	if p.seq == nil {
		return 0
	}
	seq := (*uint32)(p.seq)
	if p.write {
		atomic.AddUint32(seq, 1)
		countOp(opAdd32)
		run(p.inside, v)
		atomic.AddUint32(seq, 1)
		countOp(opAdd32)
		return 0
	}
	for {
		s1 := atomic.LoadUint32(seq)
		countOp(opLoad32)
		if s1&1 != 0 {
			retries++
			continue
		}
		run(p.inside, v)
		s2 := atomic.LoadUint32(seq)
		countOp(opLoad32)
		if s1 == s2 {
			break
		}
		retries++
	}
	run(p.after, v)
	return retries
}

// stopCheck is how many iterations a worker runs between looks at the
// stop flag: often enough to stop within microseconds, rarely enough that
// the flag's line costs nothing.
const stopCheck = 64

// loop runs the program until stop is set, at rate iterations per second
// (0: as fast as it can), and returns the iterations and retries.
func (p *program) loop(stop *atomic.Bool, rate float64) (iterations, retries uint64) {
	var next time.Time
	var period time.Duration
	if rate > 0 {
		period = time.Duration(float64(time.Second) / rate)
		next = time.Now()
	}
	for {
		for range stopCheck {
			retries += p.iterate(iterations)
			iterations++
			if period > 0 {
				next = next.Add(period)
				if d := time.Until(next); d > 0 {
					time.Sleep(d)
				}
				if stop.Load() {
					return iterations, retries
				}
			}
		}
		if stop.Load() {
			return iterations, retries
		}
	}
}

// flag holds a stop flag on a page of its own, so that the workers' looks
// at it share no line with the object.
type flag struct {
	_    [pageSize]byte
	stop atomic.Bool
	_    [pageSize]byte
}
