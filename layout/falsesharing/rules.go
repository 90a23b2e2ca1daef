package falsesharing

import "strings"

// Rule is one check of the analyzer, as data: its stable ID is the
// diagnostic's category, the SARIF rule ID and the README anchor.
type Rule struct {
	ID      string // stable: FS1 ... FS6
	Name    string // a short name, for listings
	Summary string // one line
	Doc     string // a paragraph: what and why
	Bad     string // an example the rule reports
	Good    string // the same code, fixed
	// Waste is set for a rule that reports memory that padding wastes,
	// not lines that CPUs share.
	Waste bool
}

// Home is where the rules are documented: the README of the project.
const Home = "https://github.com/mglayout/mglayout"

// URL returns the README anchor of the rule's section, "### FS1
// shard-stride".
func (r *Rule) URL() string { return Home + "#" + strings.ToLower(r.ID) + "-" + r.Name }

// The rules.
var (
	ShardStride = &Rule{
		ID: "FS1", Name: "shard-stride",
		Summary: "array elements smaller than a line hold members that different CPUs write",
		Doc: `An array, a slice or an array that a member points to (a per-shard,
per-CPU table) whose elements hold atomics, locks or words updated through
sync/atomic is indexed so that each CPU writes its own element. When an
element is smaller than a cache line, neighbouring elements share lines, and
every write by one CPU takes the line away from the others: false sharing
between shards. The fix pads each element to a whole line, at
the largest line size of the GOARCHes checked.`,
		Bad: `type counters struct {
	shards [8]struct{ n atomic.Int64 } // 8 elements per 64-byte line
}`,
		Good: `type counters struct {
	shards [8]struct {
		n atomic.Int64
		_ [120]byte // one 128-byte line per shard
	}
}`,
	}
	Neighbour = &Rule{
		ID: "FS2", Name: "hot-neighbour",
		Summary: "a hot member shares a line with members that other code reads or writes independently",
		Doc: `A member written concurrently (an atomic, a lock, a member updated through
sync/atomic) shares a line with a member that another operation uses at the
same time without needing the hot one: it writes that member and not the
hot one, or reads it and never touches the hot one. Each write of the hot
member then costs that operation a cache miss for data it did not need.
Operations are the package's exported functions and methods and its
goroutines, each with the functions it calls; constructors, lifecycle
methods, scrapes, setters and goroutines on a timer run now and then and
contend with nothing. Members always used together, members written only
under one lock, and a lock beside the data it guards share truly: no
finding. The fix inserts padding, or moves the hot member away (mglayout
suggest finds an order).`,
		Bad: `type limiter struct {
	hits  atomic.Int64 // updated by Allow on every call
	limit int64        // read by Fits(n), which never touches hits
}`,
		Good: `type limiter struct {
	hits  atomic.Int64
	_     [120]byte
	limit int64
}`,
	}
	PhasePadding = &Rule{
		ID: "FS3", Name: "phase-padding",
		Summary: "padding separates hot members only when the object starts on a line boundary",
		Doc: `Padding between two members separates them only if the object starts where
the padding was computed for. A Go object is not guaranteed to start on a
cache line: the allocator places it by size class (a 72-byte object lives in
class 80 and can start 16, 32 or 48 bytes into a line), package-level
variables are aligned to at most 32 bytes, and array elements sit at i*size.
At the other phases the two members share a line again. The same holds for
a hot member beside padding at the object's edge (or in an array's element):
at some phases the neighbouring object or element shares its line, and so
does a hot member before the object's first line pad: the object before it
in its size class, taken to be of its type, brings the members it uses
onto that line. The fix pads to a whole line plus the members' distance,
so that no phase joins them, and before the first hot member where the
object can start mid-line.`,
		Bad: `type pair struct {
	a atomic.Int64
	_ [48]byte // separates a and b only if pair starts on a line
	b atomic.Int64
}`,
		Good: `type pair struct {
	_ [120]byte // keeps the object before off a's line, 128-byte lines too
	a atomic.Int64
	_ [120]byte
	b atomic.Int64
}`,
	}
	ShortPadding = &Rule{
		ID: "FS4", Name: "short-padding",
		Summary: "padding sized for 64-byte lines on a GOARCH whose line is larger",
		Doc: `Padding computed for 64-byte lines (a 56-byte pad after an 8-byte counter,
or [64 - n%64]byte) separates members on amd64 but not on a GOARCH whose
coherence granule is larger: 128 bytes on arm64 (as x/sys/cpu.CacheLinePad
assumes; a Kunpeng 920's L3 line) and ppc64, 256 on s390x. The analyzer
checks every GOARCH in -falsesharing.arch, both between members and between
a hot member and the neighbouring object or element that padding at the
object's edge is to keep away. The fix pads for the largest line, or uses
x/sys/cpu.CacheLinePad, which is sized per GOARCH.`,
		Bad: `type limiter struct {
	tokens atomic.Int64
	_      [56]byte
	last   atomic.Int64
}`,
		Good: `type limiter struct {
	tokens atomic.Int64
	_      [120]byte
	last   atomic.Int64
}`,
	}
	WholeLinePadding = &Rule{
		ID: "FS5", Name: "whole-line-padding", Waste: true,
		Summary: "computed padding that comes to a whole line when none is needed",
		Doc: `Padding computed as [L - n%L]byte rounds n up to a multiple of L, except
when n already is one: then it adds a whole line that separates nothing and
costs memory and cache capacity in every element. (L - n%L) % L pads to the
same multiple and adds nothing when none is needed.`,
		Bad:  `pad [64 - unsafe.Sizeof(inner{})%64]byte // 64 bytes when inner is 64`,
		Good: `pad [(64 - unsafe.Sizeof(inner{})%64) % 64]byte`,
	}
	OversizedPadding = &Rule{
		ID: "FS6", Name: "oversized-padding", Waste: true,
		Summary: "trailing padding longer than the line it is to keep the next object off",
		Doc: `Padding at the end of a struct keeps the next element of a table, or the
next object of the allocator's size class, off the struct's last line. It
needs to reach the next multiple of the line, no further: a [128]byte pad
after 48 bytes of data makes 176-byte elements where 128 keep them a line
apart, and a trailing pad on an object whose size class already starts each
one on a line separates nothing at all. The bytes beyond are lost in every
element, and so is the cache capacity they take. The analyzer reports
padding that costs at least 16 bytes and an eighth of the element, at the
largest line of the GOARCHes checked and never below 128 bytes (x86's
adjacent-line prefetcher fetches 128-byte pairs, and padding for it is no
waste), where the smaller size is one the allocator starts on a line
boundary: a slice's backing array, an object of its own. The fix shortens
the pad.`,
		Bad: `type shard struct {
	hits, misses atomic.Int64
	keys         [4]uint64
	_            [128]byte // 176-byte shards
}

type cache struct{ shards []shard }`,
		Good: `type shard struct {
	hits, misses atomic.Int64
	keys         [4]uint64
	_            [80]byte // one 128-byte line per shard
}

type cache struct{ shards []shard }`,
	}
)

//go:generate go run mkreadme.go

// Rules lists every rule, in ID order; the README's section on them is
// written from this list (go generate).
var Rules = []*Rule{ShardStride, Neighbour, PhasePadding, ShortPadding, WholeLinePadding, OversizedPadding}

// WasteRule reports whether the rule of an ID reports wasted padding.
func WasteRule(id string) bool {
	for _, r := range Rules {
		if r.ID == id {
			return r.Waste
		}
	}
	return false
}
