package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// SweepOptions control a sweep.
type SweepOptions struct {
	Max      int64          // largest distance, e.g. 512
	Step     int64          // distance step, e.g. 8
	Far      int64          // the control distance, e.g. 4096
	Duration time.Duration  // of one run
	Count    int            // rounds
	CPUs     []int          // two CPUs: writer, reader; nil: the first two of the mask
	Progress func(Progress) `json:"-"`
}

// SweepPoint is one distance: the writer's and the reader's operations per
// second, one sample per round.
type SweepPoint struct {
	Distance int64     `json:"distance"`
	Writer   []float64 `json:"writer"` // the writer's atomic adds per second, one per round
	Reader   []float64 `json:"reader"` // the reader's loads per second
}

// SweepResult is a whole sweep.
type SweepResult struct {
	Points      []*SweepPoint `json:"points"` // by distance
	Far         *SweepPoint   `json:"far"`    // the control
	CPUs        [2]int        `json:"cpus"`   // the writer's and the reader's
	Rounds      int           `json:"rounds"`
	Interrupted bool          `json:"interrupted"`
}

// MarshalJSON writes a sweep with its verdict: what it found
// (InterferenceKind) and, when it found one, the destructive-interference
// distance.
func (r *SweepResult) MarshalJSON() ([]byte, error) {
	type plain SweepResult
	in := r.Interference()
	return json.Marshal(struct {
		*plain
		Kind     InterferenceKind `json:"interference"`
		Distance int64            `json:"interference_distance,omitempty"`
	}{(*plain)(r), in.Kind, in.Distance})
}

// Sweep measures this host's destructive-interference distance: a writer
// adds to the word at offset 0 of a page while a reader loads the word d
// bytes further, for every d from 0 to Max in steps of Step, and at Far as
// the control, in interleaved rounds. Below the interference distance the
// writer slows down, as every load takes the line away from it.
func Sweep(ctx context.Context, o SweepOptions) (*SweepResult, error) {
	if o.Duration < MinDuration {
		return nil, fmt.Errorf("a run of %v is too short to measure (use -duration %v or more)", o.Duration, MinDuration)
	}
	if o.Count < 1 || o.Step <= 0 || o.Step%8 != 0 || o.Max < 0 || o.Far <= o.Max || o.Far%8 != 0 {
		return nil, fmt.Errorf("want -count ≥ 1, a -step that is a multiple of 8, and a -far control beyond -max, a multiple of 8")
	}
	cpus, err := usableCPUs(o.CPUs)
	if err != nil {
		return nil, err
	}
	r := &SweepResult{CPUs: [2]int{cpus[0], cpus[1]}}
	for d := int64(0); d <= o.Max; d += o.Step {
		r.Points = append(r.Points, &SweepPoint{Distance: d})
	}
	r.Far = &SweepPoint{Distance: o.Far}
	all := append(r.Points[:len(r.Points):len(r.Points)], r.Far)

	a, err := newArena(int(o.Far + 2*pageSize))
	if err != nil {
		return nil, err
	}
	defer a.close()

	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	runtime.GOMAXPROCS(max(prev, 3))

	for round := range o.Count {
		order := append([]*SweepPoint(nil), all...)
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for i, pt := range order {
			if ctx.Err() != nil {
				r.Interrupted = true
				for _, p := range all {
					p.Writer, p.Reader = p.Writer[:round], p.Reader[:round]
				}
				return r, nil
			}
			if o.Progress != nil {
				o.Progress(Progress{round + 1, o.Count, i + 1, len(order), fmt.Sprintf("distance %d", pt.Distance)})
			}
			w, rd, err := sweepOnce(ctx, a, pt.Distance, r.CPUs, o.Duration)
			if err != nil {
				return nil, err
			}
			if ctx.Err() != nil {
				// The run was cut short: it is no sample.
				r.Interrupted = true
				for _, p := range all {
					p.Writer, p.Reader = p.Writer[:round], p.Reader[:round]
				}
				return r, nil
			}
			pt.Writer = append(pt.Writer, w)
			pt.Reader = append(pt.Reader, rd)
		}
		r.Rounds = round + 1
	}
	return r, nil
}

// sweepOnce runs the writer and the reader d bytes apart and returns
// their operations per second. The loops are as tight as Go allows: an
// atomic add or load per operation, the stop flag read every 256.
func sweepOnce(ctx context.Context, a *arena, d int64, cpus [2]int, dur time.Duration) (writer, reader float64, err error) {
	wp := (*uint64)(a.at(0))
	rp := (*uint64)(a.at(d))
	f := new(flag)
	var counts [2]uint64
	var errs [2]error
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	loops := [2]func(*atomic.Bool) uint64{
		func(stop *atomic.Bool) uint64 { return addLoop(wp, stop) },
		func(stop *atomic.Bool) uint64 { return loadLoop(rp, stop) },
	}
	for i := range 2 {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			errs[i] = pin(cpus[i])
			ready.Done()
			<-start
			if errs[0] == nil && errs[1] == nil {
				counts[i] = loops[i](&f.stop)
			}
		}()
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	select {
	case <-time.After(dur):
	case <-ctx.Done():
	}
	f.stop.Store(true)
	elapsed := time.Since(t0).Seconds()
	done.Wait()
	for _, e := range errs {
		if e != nil {
			return 0, 0, e
		}
	}
	return float64(counts[0]) / elapsed, float64(counts[1]) / elapsed, nil
}

// sweepBatch is how many operations the sweep loops run between looks at
// the stop flag.
const sweepBatch = 256

func addLoop(p *uint64, stop *atomic.Bool) uint64 {
	var n uint64
	for !stop.Load() {
		for range sweepBatch {
			atomic.AddUint64(p, 1)
		}
		n += sweepBatch
	}
	return n
}

// loadLoop loads without using the value: the compiler never removes an
// atomic load.
func loadLoop(p *uint64, stop *atomic.Bool) uint64 {
	var n uint64
	for !stop.Load() {
		for range sweepBatch {
			atomic.LoadUint64(p)
		}
		n += sweepBatch
	}
	return n
}
