// Package sharing decides, for every line size and alignment phase, which
// lines each access path touches and where writers and other paths meet
// on a line.
//
// A line that a writer stores into and another path touches is shared.
// If the other path touches bytes the writer writes, the sharing is true:
// the other path needs the new value, the line must move, and padding
// cannot help. If it touches only other bytes, the sharing is false: the
// line moves for nothing, and separating the members removes the cost.
// Sharing is weighed by the writer's rate: a line dirtied once per tick
// costs little, a compare-and-swap on every call costs a lot.
//
// An object that does not start on a line boundary, or does not end on
// one, shares its first or last line with unknown neighbours: writers of
// the object then dirty a stranger's line, and the stranger's writers
// evict the object's readers. Those lines are reported as exposed.
//
// Below 128 bytes the analysis also counts the 128-byte blocks a path
// touches, since Intel's spatial prefetcher fetches 64-byte lines in
// aligned pairs.
package sharing
