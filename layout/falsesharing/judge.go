package falsesharing

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/mglayout/mglayout/layout/falsesharing/concurrency"
)

// Tier is how strong the evidence for a finding is.
type Tier int

const (
	// Likely: a heuristic says so (different functions write the
	// members, or an array of hot elements is indexed by something the
	// model cannot read), shown only with -falsesharing.evidence=likely.
	Likely Tier = iota + 1
	// Proven: the concurrency model shows two operations that can run at
	// once on different CPUs, one writing a line the other touches.
	Proven
	// Declared: an //mglayout:path directive, or deliberate padding
	// between the members, says that they are used apart.
	Declared
)

var tierNames = []string{Likely: "likely", Proven: "proven", Declared: "declared"}

func (t Tier) String() string { return tierNames[t] }

// parseTier reads -falsesharing.evidence.
func parseTier(s string) (Tier, error) {
	for t, name := range tierNames {
		if name != "" && name == s {
			return Tier(t), nil
		}
	}
	return 0, fmt.Errorf("-falsesharing.evidence: %q is not one of declared, proven, likely (the least evidence a finding needs)", s)
}

// MarshalText writes a tier by its name, as JSON and SARIF carry it.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads a tier's name.
func (t *Tier) UnmarshalText(text []byte) error {
	v, err := parseTier(string(text))
	*t = v
	return err
}

// model returns the package's concurrency model; nil when it cannot be
// built (said once, at the package clause).
func (c *checker) model() *concurrency.Model {
	m, err := c.hot.model()
	if err != nil {
		c.reportOnce(c.pass.Files[0].Package, err.Error())
	}
	return m
}

// verdict is the judgement of one pair of members, or of one shard
// table: the tier of its evidence (0 when there is none) and the
// evidence.
type verdict struct {
	tier Tier
	// user says who uses the partner, or the table: an operation, or a
	// declaration in words.
	user evidence
	// writer, for a pair, says who writes the hot member.
	writer Side
}

// A Side is one operation's part in a finding: what it does to which
// member.
type Side struct {
	Op     string `json:"op"`             // the operation: "(*Queue).Push", "the goroutine running (*Conn).readLoop"
	Rare   string `json:"rare,omitempty"` // why it runs only now and then, when it does
	Does   string `json:"does"`           // updates, stores or reads
	Member string `json:"member"`         // the member, or the elements of a table it chooses
}

func (s Side) String() string {
	if s.Op == "" {
		return ""
	}
	op := s.Op
	if s.Rare != "" {
		op += " (" + s.Rare + ")"
	}
	return op + " " + s.Does + " " + s.Member
}

// side is an operation's touch of a member, as a Side.
func side(t concurrency.Touch, member string) Side {
	return Side{Op: t.Op.Name, Rare: t.Op.Rare, Does: verb(t), Member: member}
}

// evidence says how a member or a table is used: by an operation, or,
// where a declaration says so (padding, a directive), in its words.
type evidence struct {
	side     Side
	declared string
}

func (e evidence) String() string {
	if e.declared != "" {
		return e.declared
	}
	return e.side.String()
}

// judgePair judges a hot member and a member on one of its lines: is
// there an operation that writes the hot member while another, at the
// same time and on another CPU, touches the partner without writing the
// hot one? onLine are the members with bytes on that line.
func (c *checker) judgePair(o object, hot, partner string, onLine []string) verdict {
	// A reader of the partner must be seen apart from the hot member
	// before the model is built; a second writer may read both.
	// (The syntax index knows members of struct types, not variables.)
	if o.vars == nil && !c.hotMember(o, partner) && !c.touchIndex().mayMeetApart(o.tn, hot, partner) {
		return verdict{}
	}
	m := c.model()
	if m == nil || m.NotConcurrent(o.tn) {
		return verdict{}
	}
	hotObj := o.owner(hot)
	hotT := m.Touches(hotObj, hot, false)
	var writers []concurrency.Touch
	for _, t := range hotT {
		// A write made only on an exceptional path (an error, a closed
		// object, a wait) is no steady writer.
		if t.Writes && t.OnlyConst == "" && !t.ExceptionalOnly && !slowPath(t, hotObj, hot) {
			writers = append(writers, t)
		}
	}
	declared := c.markedHot(o, hot)
	if len(writers) == 0 || !declared && plainWrites(hotT) {
		// Never written after publication, written once with one value
		// (a closed flag), or written with plain stores outside any
		// lock: one goroutine owns the object.
		return verdict{}
	}
	isLock := c.isLock(o.typ, hot)
	// An operation that uses the hot member only on an exceptional
	// path (refreshing a cached copy of it, locking once before its
	// loop) does not need its line on the steady one.
	touchesHot := func(op *concurrency.Op, write bool) bool {
		return slices.ContainsFunc(hotT, func(t concurrency.Touch) bool {
			steadyWrite := t.Writes && !t.ExceptionalOnly
			return t.Op == op && (steadyWrite || !write && t.SteadyReads)
		})
	}
	best := verdict{}
	partnerT := m.Touches(o.owner(partner), partner, false)
	for _, pt := range partnerT {
		// A victim uses the partner and does not touch the hot member
		// on its steady path: one that reads or writes both (a producer
		// that reads head and CASes tail on every add) needs the hot
		// member's line anyway, and padding removes none of its misses.
		if touchesHot(pt.Op, false) {
			continue
		}
		if pt.ExceptionalOnly {
			continue // used only on an exceptional path: no steady victim
		}
		if slowPath(pt, o.owner(partner), partner) {
			continue
		}
		if isLock && holds(pt.Locks, hotObj, hot) {
			continue // data guarded by the lock beside it: true sharing
		}
		for _, w := range writers {
			if serialised(w, pt) {
				continue
			}
			if w.Element == concurrency.Stripe && pt.Element == concurrency.Stripe {
				continue // both in the element of one CPU or goroutine: its owner's
			}
			if slices.ContainsFunc(partnerT, func(t concurrency.Touch) bool { return t.Op == w.Op && t.Writes && t.WritesBeside(w) }) {
				// The writer writes the partner too, with the hot
				// member: the reader needs what it writes, and another
				// writer of the partner shares the partner itself with
				// it. True sharing.
				continue
			}
			tier := Likely
			switch {
			case !w.Op.Steady() || !pt.Op.Steady():
			case !w.Op.Data || !pt.Op.Data:
				// At the pace of the program's control, not of its
				// data: a cost no one would measure.
			case !w.Direct || !pt.Direct:
				// Through a callback or an interface the code chooses
				// at run time: the operation may never make it.
			case c.perItem(o.tn):
				// A value per item, touched by the calls that handle
				// its item.
			case !c.gains(o, hot, partner, w, pt, onLine):
				// The line stays contended without the hot member.
			case w.Element == concurrency.Unknown || pt.Element == concurrency.Unknown:
				// Members of a table's element chosen by a value the
				// model cannot read: whose the element is, is a guess.
			case declared:
				tier = Declared
			default:
				tier = Proven
			}
			if tier > best.tier {
				best = verdict{tier, evidence{side: side(pt, partner)}, side(w, hot)}
			}
		}
	}
	return best
}

// gains reports whether moving the hot member off its line would spare
// someone a miss. The victim: not when it writes a third member on the
// line that others write too (a lock both sides take, a counter every
// call bumps), which keeps its line moving without the hot member; a
// third member that only other operations write leaves it a victim of
// them as well, and padding each apart is the fix. The writer: when it is
// the object's one goroutine (a read loop), moving the hot member, with
// what it writes beside it every time, gives it a line of its own, but
// for a member of that group that others write too.
func (c *checker) gains(o object, hot, partner string, w, victim concurrency.Touch, onLine []string) bool {
	m := c.model()
	// A side that holds a lock around its access pays for the lock's
	// line on every call: a miss on the member beside it adds little.
	victimGains, writerGains := len(victim.Locks) == 0, w.Op.Single && len(w.Locks) == 0
	for _, member := range onLine {
		if overlaps(member, hot) || overlaps(member, partner) {
			continue
		}
		byVictim, byOthers, withHot, byNonWriters := false, false, false, false
		for _, t := range m.Touches(o.owner(member), member, o.slice) {
			if !t.Writes || t.ExceptionalOnly || !t.Op.Data || !t.Direct || t.OnlyConst != "" {
				continue
			}
			if t.Op == victim.Op {
				byVictim = true
			} else {
				byOthers = true
			}
			if t.Op == w.Op {
				withHot = withHot || t.WritesWith(w)
			} else {
				byNonWriters = true
			}
		}
		if byVictim && byOthers {
			victimGains = false
		}
		if withHot && byNonWriters {
			// The writer takes a member others take too with the hot
			// one (a lock): its line stays shared when both move.
			writerGains = false
		}
	}
	return victimGains || writerGains
}

// slowPath reports whether an operation with a lock-free fast path uses
// a member only under a lock, or the member is that lock: on its slow
// path, now and then.
func slowPath(t concurrency.Touch, obj types.Object, member string) bool {
	return (len(t.Locks) > 0 || t.Op.Holds(obj, member)) && t.Op.LockFree()
}

// writtenSteadily reports whether the steady state writes either of two
// members, with more than one value: padding between members that
// nothing but constructors and lifecycle methods write separates
// nothing that contends. Without a model the padding is believed.
func (c *checker) writtenSteadily(o object, a, b string) bool {
	m := c.model()
	if m == nil {
		return true
	}
	for _, member := range []string{a, b} {
		for _, t := range m.Touches(o.owner(member), member, o.slice) {
			if t.Writes && t.Op.Steady() && t.OnlyConst == "" && !t.ExceptionalOnly {
				return true
			}
		}
	}
	return false
}

// markedHot reports whether a member is marked //mglayout:hot.
func (c *checker) markedHot(o object, member string) bool {
	v := c.hot.memberVars(o.typ)[member]
	if v == nil {
		return false
	}
	d := c.dirs.Field(v)
	return d != nil && d.Hot
}

// judgeShards judges an array (or a slice's backing array) whose
// elements share lines: do the CPUs that run the steady state each
// write an element of their own?
func (c *checker) judgeShards(o object, arr string, slice bool, elemA, elemB string) verdict {
	m := c.model()
	if m == nil || m.NotConcurrent(o.tn) {
		return verdict{}
	}
	// Each CPU owns its element: plain writes to it are the owner's.
	touches := m.Touches(o.tn, arr, slice)
	locked := c.elementLocked(o, arr)
	pair := false
	if v := c.hot.memberVars(o.typ)[arr]; v != nil {
		a, ok := v.Type().Underlying().(*types.Array)
		pair = ok && a.Len() <= 2
	}
	best := judgeConstElements(touches, arr, elemA, elemB)
	for _, t := range touches {
		if !t.Writes || t.OnlyConst != "" || t.Index <= concurrency.Const {
			continue
		}
		if t.ReadsAll && t.Op.Steady() {
			// The writer reads every element anyway (a balancer's pick
			// loads each client's counter, then bumps one): the words
			// it writes are the words it reads, truly shared.
			continue
		}
		tier := Likely
		switch {
		case !t.Op.Steady(), !t.Op.Data, !t.Direct, pair:
			// Two elements are a hot and a cold copy that writers
			// take turns at, not a table of CPUs.
		case t.Index == concurrency.Stripe, locked && t.Index == concurrency.Hash:
			tier = Proven
		}
		if tier > best.tier {
			what := "an element"
			if locked {
				what = "the lock of an element"
			}
			best = verdict{tier: tier, user: evidence{side: side(t, fmt.Sprintf("%s of %s chosen %s", what, arr, t.Index))}}
		}
	}
	return best
}

// judgeConstElements judges two elements of a table that operations
// name by constant indexes (a connection's keys: processing, flushing):
// one steady operation writes the one, another writes the other.
func judgeConstElements(touches []concurrency.Touch, arr, elemA, elemB string) verdict {
	writes := func(t concurrency.Touch, elem string) bool {
		return t.Writes && t.OnlyConst == "" && t.Op.Data && slices.Contains(t.ConstIndexes, elem)
	}
	for _, ta := range touches {
		for _, tb := range touches {
			if ta.Op != tb.Op && writes(ta, elemA) && !writes(ta, elemB) && writes(tb, elemB) && !writes(tb, elemA) {
				return verdict{tier: Proven, user: evidence{declared: fmt.Sprintf("%s while %s", side(ta, arr+"["+elemA+"]"), side(tb, arr+"["+elemB+"]"))}}
			}
		}
	}
	return verdict{}
}

// elementLocked reports whether an array's elements hold a lock: a
// striped lock table, whose index may come from a hash.
func (c *checker) elementLocked(o object, arr string) bool {
	for path, v := range c.hot.memberVars(o.typ) {
		if (strings.HasPrefix(path, arr+"[].") || path == arr+"[]") && isMutex(v.Type()) {
			return true
		}
		if path == arr && isMutex(elemOf(v.Type())) {
			return true
		}
	}
	return false
}

// plainWrites reports whether the steady state writes a member with
// plain stores outside any lock: an object one goroutine owns. Not so
// when the one goroutine that writes them runs beside the object's
// other operations, once per object (a committer's version, read-loop
// counters): it owns the member, not the object.
func plainWrites(ts []concurrency.Touch) bool {
	return slices.ContainsFunc(ts, func(t concurrency.Touch) bool {
		return t.Plain && t.Op.Steady() && !(t.Op.Goroutine && t.Op.Single)
	})
}

// serialised reports whether two accesses cannot happen at once: both
// hold the same lock, and at least one holds it exclusively.
func serialised(a, b concurrency.Touch) bool {
	for _, la := range a.Locks {
		for _, lb := range b.Locks {
			if la.Obj == lb.Obj && la.Member == lb.Member && (!la.Read || !lb.Read) {
				return true
			}
		}
	}
	return false
}

func holds(locks []concurrency.Lock, obj types.Object, member string) bool {
	return slices.ContainsFunc(locks, func(l concurrency.Lock) bool { return l.Obj == obj && l.Member == member })
}

// verb says what an operation does to a member.
func verb(t concurrency.Touch) string {
	switch {
	case t.Updates:
		return "updates"
	case t.Writes:
		return "stores"
	}
	return "reads"
}

// isMutex reports whether t is sync.Mutex or sync.RWMutex.
func isMutex(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex")
}

// elemOf is the element type of an array or slice type, or t.
func elemOf(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Array:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	}
	return t
}
