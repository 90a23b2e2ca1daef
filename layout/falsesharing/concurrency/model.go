package concurrency

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Kind is how an access uses a member.
type Kind uint8

const (
	Load   Kind = iota
	Store       // a plain or atomic store
	Update      // a read-modify-write: an atomic add, swap or CAS, a lock's method, x++
)

// Writes reports whether the access stores into the member.
func (k Kind) Writes() bool { return k >= Store }

// Index says how the index of an array or slice element is computed.
type Index uint8

const (
	NoIndex Index = iota // not an element access
	Const                // a constant
	Unknown              // a parameter or value of no telling name
	Loop                 // a loop counter: every element in turn
	Hash                 // a hash of a key
	Stripe               // per CPU, per P, or at random: each CPU its own element
)

func (x Index) String() string {
	return [...]string{"", "by a constant", "by a value the model cannot read", "by a loop", "by a hash", "per CPU or goroutine, at random or by a ticket"}[x]
}

// Lock is a mutex member of a struct type.
type Lock struct {
	Obj    types.Object // the struct type (or package-level variable) holding it
	Member string
	Read   bool // held with RLock
}

// Access is one operation's access to one member of one struct type.
type Access struct {
	Obj    types.Object // the struct type, or the package-level variable
	Member string       // "a.b", "a[]" for an array's elements, "a[*]" for a slice's
	Kind   Kind
	Atomic bool
	// ConstStore is the constant a store writes ("true", "1"), or "".
	ConstStore  string
	Locks       []Lock
	Fresh       bool // on an object the operation allocated, before it is published
	Exceptional bool // made only on an exceptional path: after or on the way to an error, once the object is closed, or beside a blocking wait
	// Dynamic: made only through calls the code chooses at run time (a
	// callback, an interface's implementation).
	Dynamic bool
	// ReadLock: a sync.RWMutex's RLock, RUnlock or TryRLock, which write
	// only its reader count (readerCount and readerWait, its last 8
	// bytes).
	ReadLock bool
	Index    Index
	// ConstIndex is the element's index when Index is Const.
	ConstIndex string
	// Element says how the object was chosen when it was reached as an
	// element of a table (s.shards[w].hits for a shard's hits), else
	// NoIndex.
	Element Index
	// site is the block that names the member (cand.site).
	site *ssa.BasicBlock
}

// Op is an operation: an entry point of the package, or a goroutine body.
type Op struct {
	Name string
	// Goroutine is set for a goroutine's body.
	Goroutine bool
	// Rare says why the operation runs only now and then ("a
	// constructor", "a scrape", "runs on a timer"), or "" on the
	// steady-state path.
	Rare string
	// Data is set for a steady operation on the data path (onDataPath):
	// it does its type's work on every request, message or item.
	Data bool
	// Single is set for a goroutine that runs once per object (a
	// connection's read loop): what it alone writes, no other CPU does.
	Single   bool
	Accesses []Access

	// held holds the locks held at any of the accesses, as lockKeys;
	// lockFree caches LockFree: 0 unknown, 1 no, 2 yes.
	held     map[lockKey]bool
	lockFree int8
}

// lockKey is a lock whatever the mode it is held in.
type lockKey struct {
	obj    types.Object
	member string
}

// Steady reports whether the operation runs on the steady-state path.
func (op *Op) Steady() bool { return op.Rare == "" }

// Holds reports whether the operation holds the lock that is member of
// obj at any of its accesses.
func (op *Op) Holds(obj types.Object, member string) bool {
	if op.held == nil {
		op.held = map[lockKey]bool{}
		for _, a := range op.Accesses {
			for _, l := range a.Locks {
				op.held[lockKey{l.Obj, l.Member}] = true
			}
		}
	}
	return op.held[lockKey{obj, member}]
}

// LockFree reports whether the operation writes atomically outside any
// lock, other than by taking a lock it holds elsewhere: its steady path
// is lock-free, and what it does under a lock is its slow path (a bucket
// limit reached, a reader bias lost).
func (op *Op) LockFree() bool {
	if op.lockFree == 0 {
		op.lockFree = 1
		if slices.ContainsFunc(op.Accesses, func(a Access) bool {
			return a.Atomic && a.Kind.Writes() && len(a.Locks) == 0 && !a.Fresh && !op.Holds(a.Obj, a.Member)
		}) {
			op.lockFree = 2
		}
	}
	return op.lockFree == 2
}

// Model is what a package's operations do to its struct types.
type Model struct {
	Ops []*Op
	// notConcurrent holds the types whose doc says they are not safe for
	// concurrent use.
	notConcurrent map[types.Object]bool
	// byTop indexes the operations' accesses by the object they reach
	// and the top-level member of their path, which is all a member's
	// touches can be among, in the operations' order; touches memoises
	// Touches.
	byTop   map[topKey][]opAccess
	touches map[touchKey][]Touch
}

type opAccess struct {
	op *Op
	a  *Access
}

type topKey struct {
	obj types.Object
	top string
}

// top returns the top-level member of a member path: "a" of "a.b" and
// of "a[].b".
func top(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

type touchKey struct {
	obj    types.Object
	member string
	slice  bool
}

// Build builds the SSA form of a type-checked package, as the buildssa
// pass does, and its model. A package the SSA builder cannot handle is
// an error that names it, not a crash of the whole run.
//
// external says how a method of another package's type uses its
// receiver, where the caller knows (a wrapper around sync/atomic that
// facts describe); nil knows none. interest, when not nil, says which
// struct types and variables the model is to answer for: the accesses of
// others are left out, and the functions that cannot reach theirs are
// not built (they are operations that access nothing).
func Build(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info, external func(*types.Func) (Kind, bool), interest func(types.Object) bool) (m *Model, err error) {
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("%s: the concurrency model cannot be built: %v", pkg.Path(), r)
		}
	}()
	// The package initializer is no operation: the initial values of
	// package-level variables are not built.
	ssaFiles, ssaInfo := files, *info
	ssaInfo.InitOrder = nil
	if interest != nil {
		needed := neededBodies(pkg, files, info, interest)
		if len(needed) == 0 {
			// Nothing touches an object of interest: no SSA form.
			b := newBuilder(nil, files, info)
			m := &Model{notConcurrent: b.notConcurrentTypes()}
			m.index()
			return m, nil
		}
		ssaFiles, ssaInfo.FileVersions = withBodies(files, info.FileVersions, needed)
	}
	prog := ssa.NewProgram(fset, 0)
	for _, p := range pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	sp := prog.CreatePackage(pkg, ssaFiles, &ssaInfo, false)
	sp.Build()
	b := newBuilder(sp, files, info)
	b.external, b.interest = external, interest
	return b.model(), nil
}

// withBodies returns copies of files in which the function declarations
// not in needed have no body, so that the SSA builder declares them but
// builds nothing of them, with the file versions of the copies.
func withBodies(files []*ast.File, versions map[*ast.File]string, needed map[*ast.FuncDecl]bool) ([]*ast.File, map[*ast.File]string) {
	out := make([]*ast.File, len(files))
	outVersions := maps.Clone(versions)
	for i, f := range files {
		var decls []ast.Decl
		for j, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || needed[fd] {
				continue
			}
			if decls == nil {
				decls = slices.Clone(f.Decls)
			}
			bodiless := *fd
			bodiless.Body = nil
			decls[j] = &bodiless
		}
		out[i] = f
		if decls != nil {
			copied := *f
			copied.Decls = decls
			out[i] = &copied
			outVersions[&copied] = versions[f]
		}
	}
	return out, outVersions
}

// Within reports whether an access path lies in member: the member
// itself, a member of it, or an element of it.
func Within(access, member string) bool {
	if access == member {
		return true
	}
	if len(access) > len(member) && strings.HasPrefix(access, member) {
		switch access[len(member)] {
		case '.', '[':
			return true
		}
	}
	return false
}

// Touch is one operation's accesses to a member, merged.
type Touch struct {
	Op     *Op
	Writes bool
	// Updates: some write is a read-modify-write, or a store of more
	// than one value.
	Updates bool
	Atomic  bool
	// Plain: some write is neither atomic nor made under a lock.
	Plain bool
	// Locks held at every access (the intersection).
	Locks []Lock
	Index Index // the strongest index seen
	// Element is how the object is chosen where every access reaches it
	// as an element of a table: the weakest such choice; NoIndex where
	// some access reaches it on its own.
	Element Index
	// ConstIndexes are the constant indexes of the elements written,
	// when every element write has one.
	ConstIndexes []string
	// OnlyConst is the one constant every write stores, or "".
	OnlyConst string
	// ExceptionalOnly: every write is made on an exceptional path; of a
	// touch that only reads, every read. SteadyReads: some read is made
	// on the steady path.
	ExceptionalOnly bool
	SteadyReads     bool
	// ReadsAll: some steady read walks the elements in a loop.
	ReadsAll bool
	// Direct: some access is made by a call the code names, not one it
	// chooses at run time.
	Direct bool
	// ReadLocksOnly: every write takes or releases a sync.RWMutex for
	// reading (Access.ReadLock).
	ReadLocksOnly bool

	mixedIndexes bool // some element write has no constant index
	// writeSites are the blocks that name the member where the
	// operation writes it.
	writeSites []*ssa.BasicBlock
}

// WritesWith reports whether the operation writes the members of two
// of its touches in one block of code: together every time, as a Record
// that bumps a count and a sum does, not on branches of their own (a
// read loop that counts each message in and, on a rarer branch, takes a
// lock).
func (t Touch) WritesWith(o Touch) bool {
	return slices.ContainsFunc(t.writeSites, func(b *ssa.BasicBlock) bool { return slices.Contains(o.writeSites, b) })
}

// WritesBeside reports whether the operation writes the members of two
// of its touches in one function, on one branch or on two: the code
// that handles the one handles the other (a counter's Add that adds
// whole numbers to one word and fractions to the other), not activities
// of their own (a read loop that counts each message in and, elsewhere,
// publishes a reply counted out).
func (t Touch) WritesBeside(o Touch) bool {
	return slices.ContainsFunc(t.writeSites, func(b *ssa.BasicBlock) bool {
		return slices.ContainsFunc(o.writeSites, func(c *ssa.BasicBlock) bool { return b == c || b != nil && c != nil && b.Parent() == c.Parent() })
	})
}

// Touches returns, for each operation, how it accesses a member of obj
// (or anything inside it), leaving out accesses to objects not yet
// published. A member given as "a[]" matches slices' "a[*]" too when
// slice is set.
func (m *Model) Touches(obj types.Object, member string, slice bool) []Touch {
	key := touchKey{obj, member, slice}
	if ts, ok := m.touches[key]; ok {
		return ts
	}
	var out []Touch
	var t *Touch
	var consts map[string]bool
	var plain, readsExceptional bool
	flush := func() {
		if t == nil {
			return
		}
		if !t.Writes {
			t.ExceptionalOnly, t.ReadLocksOnly = readsExceptional, false
		}
		if t.Writes && !plain && len(consts) == 1 {
			for c := range consts {
				t.OnlyConst = c
			}
		}
		if len(consts) > 1 {
			t.Updates = true
		}
		if t.mixedIndexes {
			t.ConstIndexes = nil
		}
		out = append(out, *t)
		t = nil
	}
	for _, oa := range m.byTop[topKey{obj, top(member)}] {
		a := oa.a
		if a.Fresh {
			continue
		}
		path := a.Member
		if slice {
			path = strings.ReplaceAll(path, "[*]", "[]")
		}
		if !Within(path, member) {
			continue
		}
		// An element of a slice member lives in another allocation:
		// using it reads the member's header, and writes nothing in it.
		kind, atomic, constStore := a.Kind, a.Atomic, a.ConstStore
		if !slice && strings.HasPrefix(path[len(member):], "[*]") {
			kind, atomic, constStore = Load, false, ""
		}
		if t != nil && t.Op != oa.op {
			flush()
		}
		if t == nil {
			t = &Touch{Op: oa.op, Locks: slices.Clone(a.Locks), ExceptionalOnly: true, ReadLocksOnly: true, Element: a.Element}
			consts, plain, readsExceptional = map[string]bool{}, false, true
		} else {
			t.Locks = intersect(t.Locks, a.Locks)
		}
		if kind.Writes() && a.Index == Const && a.ConstIndex != "" {
			if !slices.Contains(t.ConstIndexes, a.ConstIndex) {
				t.ConstIndexes = append(t.ConstIndexes, a.ConstIndex)
			}
		} else if kind.Writes() && a.Index != NoIndex {
			t.mixedIndexes = true
		}
		if !kind.Writes() {
			readsExceptional = readsExceptional && a.Exceptional
			t.SteadyReads = t.SteadyReads || !a.Exceptional
			t.ReadsAll = t.ReadsAll || !a.Exceptional && a.Index == Loop
		}
		if kind.Writes() {
			t.Writes = true
			if !slices.Contains(t.writeSites, a.site) {
				t.writeSites = append(t.writeSites, a.site)
			}
			t.ExceptionalOnly = t.ExceptionalOnly && a.Exceptional
			t.ReadLocksOnly = t.ReadLocksOnly && a.ReadLock
			if kind == Update {
				t.Updates = true
			}
			if !atomic && len(a.Locks) == 0 {
				t.Plain = true
			}
			if constStore != "" {
				consts[constStore] = true
			} else {
				plain = true
			}
		}
		t.Atomic = t.Atomic || atomic
		t.Direct = t.Direct || !a.Dynamic
		t.Index = max(t.Index, a.Index)
		if a.Element == NoIndex || t.Element == NoIndex {
			t.Element = NoIndex
		} else {
			t.Element = min(t.Element, a.Element)
		}
	}
	flush()
	m.touches[key] = out
	return out
}

func intersect(a, b []Lock) []Lock {
	return slices.DeleteFunc(a, func(l Lock) bool { return !slices.Contains(b, l) })
}

// index fills byTop from the operations' accesses.
func (m *Model) index() {
	m.byTop = map[topKey][]opAccess{}
	m.touches = map[touchKey][]Touch{}
	for _, op := range m.Ops {
		for i := range op.Accesses {
			a := &op.Accesses[i]
			k := topKey{a.Obj, top(a.Member)}
			m.byTop[k] = append(m.byTop[k], opAccess{op, a})
		}
	}
}

// StripedWrites returns the members of the elements of an array or
// slice member of obj ("a[]" names both) that some operation writes in
// an element chosen per CPU or goroutine: shards that their owners
// write with plain stores, as paths under member ("a[].m").
func (m *Model) StripedWrites(obj types.Object, member string) []string {
	var out []string
	for _, oa := range m.byTop[topKey{obj, top(member)}] {
		a := oa.a
		path := strings.ReplaceAll(a.Member, "[*]", "[]")
		if a.Fresh || !a.Kind.Writes() || a.Index != Stripe || !Within(path, member) {
			continue
		}
		if !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	slices.Sort(out)
	return out
}

// NotConcurrent reports whether a type's doc says it is not safe for
// concurrent use.
func (m *Model) NotConcurrent(obj types.Object) bool { return m.notConcurrent[obj] }

// SoleWriterStores returns the members of each struct type that one
// goroutine writes with plain stores on its steady path, outside any
// lock, and no other operation writes: a committer's version bumped
// per transaction, the only writer's, which other CPUs may read on every
// call. Such a goroutine runs once per object (Op.Single): it owns the
// member, and its line moves on each store.
func (m *Model) SoleWriterStores() map[types.Object][]string {
	writers := map[lockKey][]*Op{}
	for _, op := range m.Ops {
		for _, a := range op.Accesses {
			if a.Kind.Writes() && !a.Fresh {
				k := lockKey{a.Obj, a.Member}
				if !slices.Contains(writers[k], op) {
					writers[k] = append(writers[k], op)
				}
			}
		}
	}
	out := map[types.Object][]string{}
	for _, op := range m.Ops {
		if !op.Goroutine || !op.Single || !op.Steady() {
			continue
		}
		for _, a := range op.Accesses {
			k := lockKey{a.Obj, a.Member}
			if _, isType := a.Obj.(*types.TypeName); !isType || !a.Kind.Writes() || a.Atomic || a.Fresh || a.Exceptional || len(a.Locks) > 0 ||
				strings.ContainsAny(a.Member, "[") || len(writers[k]) != 1 || slices.Contains(out[a.Obj], a.Member) {
				continue
			}
			out[a.Obj] = append(out[a.Obj], a.Member)
		}
	}
	return out
}

// AtomicWrites returns, for each object, the members some operation
// writes atomically: the members a package treats as hot whatever their
// type (a uintptr that a wrapper's Add updates with sync/atomic). The
// elements of slices ("a[*]") belong to other objects and are left out.
func (m *Model) AtomicWrites() map[types.Object][]string {
	out := map[types.Object][]string{}
	for _, op := range m.Ops {
		for _, a := range op.Accesses {
			if a.Atomic && a.Kind.Writes() && !strings.Contains(a.Member, "[*]") && !slices.Contains(out[a.Obj], a.Member) {
				out[a.Obj] = append(out[a.Obj], a.Member)
			}
		}
	}
	return out
}
