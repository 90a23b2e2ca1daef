package probe

import (
	"fmt"
	"math"
	"slices"

	"github.com/mglayout/mglayout/probe/stats"
)

// InterferenceKind is what a sweep found.
type InterferenceKind int

const (
	// Found: a distance below which the writer is significantly slower
	// than at the far control, and from which on it never is.
	Found InterferenceKind = iota + 1
	// Everywhere: the writer is slower at every distance measured.
	Everywhere
	// NoneFound: the writer is never significantly slower, not even with
	// the reader on its own line, which slows a writer on every
	// cache-coherent host: the rounds were too noisy to tell.
	NoneFound
	// Undecidable: the rounds are too few to show any distance
	// significant over the sweep's tests, on any machine.
	Undecidable
)

var interferenceKinds = []string{Found: "found", Everywhere: "everywhere", NoneFound: "none", Undecidable: "undecidable"}

func (k InterferenceKind) String() string { return interferenceKinds[k] }

// MarshalText writes the kind by its name, as report.json carries it.
func (k InterferenceKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *InterferenceKind) UnmarshalText(text []byte) error {
	i := slices.Index(interferenceKinds, string(text))
	if i <= 0 {
		return fmt.Errorf("interference %q is not one of found, everywhere, none, undecidable", text)
	}
	*k = InterferenceKind(i)
	return nil
}

// Interference is the verdict of a sweep.
type Interference struct {
	Kind InterferenceKind
	// Distance is, for Found, the first distance from which on the
	// writer is never slower than at the far control: the destructive
	// interference distance. It is 0 for the other kinds.
	Distance int64
	// Comparisons are the writer's at every distance against the
	// control, in the order of the points, corrected as one family.
	Comparisons []stats.Comparison
	// Slower are the distances at which the writer is slower, with
	// their comparison.
	Slower map[int64]stats.Comparison
}

// Decidable reports whether the sweep's rounds could show a distance
// significant at all after the correction for its number of tests: with
// too few (6 rounds over 65 distances), the exact test's smallest p is
// above the corrected level, and no knee can be found on any machine.
func (in Interference) Decidable() bool {
	return len(in.Comparisons) > 0 && !math.IsInf(in.Comparisons[0].MDE, 1)
}

// slowdown is the smallest slowdown that counts, besides significance:
// two runs of the same loop on a shared VM differ by a few per cent.
const slowdown = -0.05

// kneeFraction is the part of the same-line slowdown (the writer's at
// distance 0) that a distance must show to interfere: a line the reader
// shares costs the writer most of its rate, and a prefetcher's pairing of
// adjacent lines a good part of it, where a noisy round costs a few per
// cent.
const kneeFraction = 0.25

// Interference compares the writer at every distance with the control.
// The comparisons are one family, corrected for their number (Holm): a
// sweep of 65 distances would otherwise find three by chance. A distance
// interferes when its slowdown is significant and at least kneeFraction
// of the same-line slowdown (and slowdown).
func (r *SweepResult) Interference() Interference {
	in := Interference{Slower: map[int64]stats.Comparison{}}
	for _, p := range r.Points {
		in.Comparisons = append(in.Comparisons, stats.Compare(r.Far.Writer, p.Writer))
	}
	stats.Holm(in.Comparisons)
	threshold := slowdown
	if len(r.Points) > 0 && r.Points[0].Distance == 0 {
		threshold = min(threshold, kneeFraction*in.Comparisons[0].Delta)
	}
	last := -1
	for i, c := range in.Comparisons {
		if c.Significant() && c.Delta < threshold {
			in.Slower[r.Points[i].Distance] = c
			last = i
		}
	}
	switch {
	case last < 0 && !in.Decidable():
		in.Kind = Undecidable
	case last < 0:
		in.Kind = NoneFound
	case last == len(r.Points)-1:
		in.Kind = Everywhere
	default:
		in.Kind, in.Distance = Found, r.Points[last+1].Distance
	}
	return in
}

// Verdict says what the sweep found in one sentence, the same in every
// format that prints it: rounds is the number of rounds, largest the
// largest distance measured.
func (in Interference) Verdict(rounds int, largest int64) string {
	switch in.Kind {
	case Found:
		s := fmt.Sprintf("Destructive-interference distance: %d bytes (%d rounds): the writer is significantly slower below it, and never from it on.", in.Distance, rounds)
		if in.Distance > 64 && in.Distance%128 == 0 {
			s += " Beyond the 64-byte line: the adjacent-line prefetcher pairs lines on this host."
		}
		return s
	case Everywhere:
		return fmt.Sprintf("Destructive-interference distance: more than %d bytes (%d rounds): the writer is slower at every distance measured.", largest, rounds)
	case Undecidable:
		return fmt.Sprintf("Destructive-interference distance: none measured: %d rounds cannot show a distance significant over the sweep's %d tests, whatever the machine; run more rounds (-count).", rounds, len(in.Comparisons))
	}
	return fmt.Sprintf("Destructive-interference distance: none measured (%d rounds): the writer is never significantly slower than at the far control, not even with the reader on its own line, which slows a writer on every cache-coherent host: the rounds were too noisy to tell (other work on these CPUs?). Run it again on a quiet machine.", rounds)
}
