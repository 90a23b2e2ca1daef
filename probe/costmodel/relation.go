package costmodel

// Relation is where a writer's word lies from a reader's, as coherence
// sees it on a host of a given line size.
type Relation string

const (
	// SameLine: both words on one line; each write invalidates the
	// reader's copy.
	SameLine Relation = "same line"
	// AdjacentLine: the other line of an aligned pair of lines, which a
	// spatial (adjacent-line) prefetcher fetches together.
	AdjacentLine Relation = "adjacent line"
	// Apart: no line of the pair in common.
	Apart Relation = "apart"
)

// Relations are the relations a calibration measures, nearest first.
var Relations = []Relation{SameLine, AdjacentLine, Apart}

// RelationOf is the relation of two addresses, offsets from a base
// aligned to two lines (a page), on lines of the given size.
func RelationOf(a, b, line int64) Relation {
	switch {
	case a/line == b/line:
		return SameLine
	case a/(2*line) == b/(2*line):
		return AdjacentLine
	}
	return Apart
}

// RelationOfSpans is the nearest relation of any byte of [a, aEnd) to
// any byte of [b, bEnd): two members are on one line where any of their
// words are.
func RelationOfSpans(a, aEnd, b, bEnd, line int64) Relation {
	overlap := func(unit int64) bool { return a/unit <= (bEnd-1)/unit && b/unit <= (aEnd-1)/unit }
	switch {
	case overlap(line):
		return SameLine
	case overlap(2 * line):
		return AdjacentLine
	}
	return Apart
}

// RelationOnLines is where two spans lie from each other in a case of
// line size line on a host of hostLine-byte lines: natively the nearest
// relation of their bytes; under the probe's emulation of a larger line,
// on one line exactly when they share a target line (the probe packs
// each target line's words into a host line of its own, two host lines
// from the next), else apart.
func RelationOnLines(a, aEnd, b, bEnd, line, hostLine int64) Relation {
	if line == hostLine {
		return RelationOfSpans(a, aEnd, b, bEnd, hostLine)
	}
	if RelationOfSpans(a, aEnd, b, bEnd, line) == SameLine {
		return SameLine
	}
	return Apart
}

// distance is the offset of the reader's word from the writer's, at the
// start of a page, that the calibration gives each relation: the far one
// beyond any prefetcher's reach, as the sweep's control.
func distance(r Relation, line int64) int64 {
	switch r {
	case SameLine:
		return 8
	case AdjacentLine:
		return line
	}
	return farDistance
}

// farDistance is the sweep's far control.
const farDistance = 4096
