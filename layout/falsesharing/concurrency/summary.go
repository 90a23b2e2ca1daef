package concurrency

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// acc is an access as a function's summary holds it: relative to its
// root, so that a caller can map it onto its own arguments.
type acc struct {
	chain
	kind        Kind
	atomic      bool
	constStore  string
	locks       []Lock
	exceptional bool // made only on an exceptional path (exceptionalBlocks)
	// readLock: a sync.RWMutex taken or released for reading, which
	// writes only its reader count.
	readLock bool
	// dynamic: made only through a call the code chooses at run time
	// (a callback in a field, one of an interface's implementations),
	// which the operation may or may not make.
	dynamic bool
}

// key identifies an access for deduplication; objects are numbered by
// the builder. It is written into the builder's buffer, which the next
// key reuses: most accesses are duplicates, whose keys need no string of
// their own.
func (a *acc) key(b *builder) []byte {
	buf := b.keyBuf[:0]
	defer func() { b.keyBuf = buf }()
	for _, t := range a.tokens {
		buf = append(buf, t...)
		buf = append(buf, 0)
	}
	for _, c := range a.cands {
		buf = strconv.AppendInt(append(buf, 1), int64(b.objID(c.obj)), 10)
		buf = strconv.AppendInt(append(buf, '@'), int64(c.start), 10)
		buf = strconv.AppendInt(append(buf, '/'), int64(b.siteID(c.site)), 10)
	}
	buf = append(buf, 2, byte(a.root), byte(a.idx), byte(a.kind))
	buf = append(append(buf, a.constIdx...), 0)
	buf = strconv.AppendInt(buf, int64(a.idxParam), 10)
	buf = strconv.AppendInt(append(buf, ' '), int64(a.idxAt), 10)
	buf = strconv.AppendInt(buf, int64(a.index), 10)
	if a.atomic {
		buf = append(buf, 'a')
	}
	buf = append(append(buf, 3), a.constStore...)
	if a.exceptional {
		buf = append(buf, 'e')
	}
	if a.dynamic {
		buf = append(buf, 'd')
	}
	if a.readLock {
		buf = append(buf, 'r')
	}
	for _, l := range a.locks {
		buf = strconv.AppendInt(append(buf, 4), int64(b.objID(l.Obj)), 10)
		buf = append(append(buf, ' '), l.Member...)
		if l.Read {
			buf = append(buf, 'r')
		}
	}
	return buf
}

// siteID numbers the blocks that name members, for keys.
func (b *builder) siteID(blk *ssa.BasicBlock) int {
	if blk == nil {
		return 0
	}
	id, ok := b.siteIDs[blk]
	if !ok {
		id = len(b.siteIDs) + 1
		b.siteIDs[blk] = id
	}
	return id
}

// objID numbers the objects accesses name, for keys.
func (b *builder) objID(obj types.Object) int {
	id, ok := b.ids[obj]
	if !ok {
		id = len(b.ids) + 1
		b.ids[obj] = id
	}
	return id
}

// accID numbers a distinct access: the builder keeps each access once,
// and summaries hold their numbers. Carrying a callee's accesses of
// package-level or local objects up a call chain, unchanged where the
// caller holds no lock around the call, then copies numbers; those
// changed on the way, and those through a parameter or a free variable
// (mapped onto the caller's arguments), are keyed again.
type accID int32

// summary is what a function and its callees do to the members they
// reach.
type summary struct {
	ids  []accID
	seen map[accID]bool
}

// maxAccesses bounds a summary: a function that touches more members
// than this is a whole subsystem, and the rest tells nothing new.
const maxAccesses = 1024

func (s *summary) full() bool { return len(s.ids) >= maxAccesses }

// add adds an access to a summary that is not full.
func (s *summary) add(id accID) {
	if !s.seen[id] {
		s.seen[id] = true
		s.ids = append(s.ids, id)
	}
}

// intern returns an access's number, numbering it on first sight.
func (b *builder) intern(a acc) accID {
	k := a.key(b)
	if id, ok := b.accIDs[string(k)]; ok {
		return id
	}
	id := accID(len(b.accs))
	b.accs = append(b.accs, a)
	b.accIDs[string(k)] = id
	return id
}

type builder struct {
	pkg   *ssa.Package
	files []*ast.File
	info  *types.Info
	sums  map[*ssa.Function]*summary
	// indexes memoises how index values are computed.
	indexes map[ssa.Value]Index
	// fieldStores holds the values stored into each field of the
	// package's struct types, for indexes loaded from a field.
	fieldStores map[*types.Var][]ssa.Value
	// callers lists the package's callers of each function, as the
	// model finds the operations.
	callers map[*ssa.Function][]*ssa.Function
	// sites lists the static call sites of each function, goSites the
	// arguments of each go statement that starts it.
	sites   map[*ssa.Function][]*ssa.CallCommon
	goSites map[*ssa.Function][][]ssa.Value
	// goBindings holds, for each closure a go statement starts, what
	// each start binds its free variables to.
	goBindings map[*ssa.Function][][]ssa.Value
	// closures lists where each closure is made, spawnsInLoop the
	// functions with a go statement in a loop.
	closures     map[*ssa.Function][]*ssa.MakeClosure
	spawnsInLoop map[*ssa.Function]bool
	// impls memoises implementations.
	impls map[implKey][]*ssa.Function
	// implTypes memoises implementers.
	implTypes []*types.TypeName
	ids       map[types.Object]int
	siteIDs   map[*ssa.BasicBlock]int
	// accs holds every distinct access of the summaries, accIDs their
	// numbers by key.
	accs   []acc
	accIDs map[string]accID
	// paths memoises memberPaths.
	paths map[accID][]string
	// external says how other packages' methods use their receivers.
	external func(*types.Func) (Kind, bool)
	// interest says which objects' accesses the model keeps; nil keeps
	// all.
	interest func(types.Object) bool
	// keyBuf is the buffer of acc.key.
	keyBuf []byte
	// readBiased holds the lock types whose doc says writers are rare,
	// found when first asked.
	readBiased map[types.Object]bool
	// made memoises madeOutsideTests.
	made map[*types.TypeName]bool
	// returned memoises returnedChain; retDepth bounds its nesting.
	returned map[*ssa.Function]chain
	retDepth int
}

// interesting keeps the candidates whose objects the model is asked
// about: carrying every struct type's accesses up every call chain is
// the model's main cost.
func (b *builder) interesting(cands []cand) []cand {
	if b.interest == nil {
		return cands
	}
	return slices.DeleteFunc(cands, func(c cand) bool { return !b.interest(c.obj) })
}

func newBuilder(pkg *ssa.Package, files []*ast.File, info *types.Info) *builder {
	return &builder{pkg: pkg, files: files, info: info, sums: map[*ssa.Function]*summary{}, indexes: map[ssa.Value]Index{}, ids: map[types.Object]int{}, siteIDs: map[*ssa.BasicBlock]int{}, accIDs: map[string]accID{}, paths: map[accID][]string{}, impls: map[implKey][]*ssa.Function{}, returned: map[*ssa.Function]chain{}}
}

// inPkg reports whether a function has a body of this package.
func (b *builder) inPkg(fn *ssa.Function) bool {
	if fn == nil || fn.Blocks == nil {
		return false
	}
	if fn.Pkg == b.pkg {
		return true
	}
	o := fn.Origin()
	return o != nil && o.Pkg == b.pkg
}

// summarize returns a function's summary, computing it on first use. A
// call cycle sees the summary as far as it is built.
func (b *builder) summarize(fn *ssa.Function) *summary {
	if s := b.sums[fn]; s != nil {
		return s
	}
	s := &summary{seen: map[accID]bool{}}
	b.sums[fn] = s
	locks := b.locksTaken(fn)
	serving := b.serves(fn)
	exceptional := exceptionalBlocks(fn, serving)
	once := b.onceBlocks(fn, serving)
	var inExceptional bool
	var here *ssa.BasicBlock
	var at int
	var refreshing bool
	// emit adds an access, given its number when it has one (a callee's
	// access), -1 when it is new.
	emit := func(a acc, id accID) {
		if s.full() {
			return
		}
		// Clipped: a callee's accesses share their locks, and the first
		// lock added here copies them.
		a.locks = slices.Clip(a.locks)
		for _, l := range locks.at(here, at) {
			if !slices.Contains(a.locks, l) {
				a.locks = append(a.locks, l)
				id = -1
			}
		}
		if !a.exceptional && (inExceptional || refreshing) {
			a.exceptional = true
			id = -1
		}
		if id < 0 {
			id = b.intern(a)
		}
		s.add(id)
	}
	for _, blk := range fn.Blocks {
		inExceptional = exceptional[blk] || once[blk]
		here = blk
		for i, in := range blk.Instrs {
			at = i
			switch in := in.(type) {
			case *ssa.Store:
				// Storing a refreshed copy is part of the refresh.
				refreshing = refreshed(in.Val)
				b.record(emit, fn, in.Addr, Store, false, constOf(in.Val))
				refreshing = false
			case *ssa.UnOp:
				if in.Op == token.MUL {
					refreshing = refreshesCopy(in, in.X)
					b.record(emit, fn, in.X, Load, false, "")
					refreshing = false
				}
			case *ssa.Call:
				if len(in.Call.Args) == 1 {
					refreshing = refreshesCopy(in, in.Call.Args[0])
				}
				b.call(emit, fn, in.Common())
				refreshing = false
			case *ssa.Defer:
				b.call(emit, fn, in.Common())
			}
		}
	}
	return s
}

// refreshesCopy reports whether a value loaded from a member is stored
// into another member of the same object: a cached copy refreshed
// (rigtorp's queues keep the other side's index so, and read the
// original only when the copy runs out), which is an exceptional read.
func refreshesCopy(v ssa.Value, addr ssa.Value) bool {
	from, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	for _, r := range *v.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Val == v {
			if to, ok := st.Addr.(*ssa.FieldAddr); ok && to.X == from.X && to.Field != from.Field {
				return true
			}
		}
	}
	return false
}

// refreshed reports whether a stored value is the load of a member
// that refreshes a cached copy (refreshesCopy).
func refreshed(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		return x.Op == token.MUL && refreshesCopy(x, x.X)
	case *ssa.Call:
		return len(x.Call.Args) == 1 && refreshesCopy(x, x.Call.Args[0])
	}
	return false
}

// record adds an access through an address, when it reaches a member of
// a struct type of the package or a root a caller can map.
func (b *builder) record(emit func(acc, accID), fn *ssa.Function, addr ssa.Value, kind Kind, atomic bool, constStore string) {
	b.recordAcc(emit, fn, addr, acc{kind: kind, atomic: atomic, constStore: constStore})
}

// recordAcc records an access to what addr points to, with a's kind.
func (b *builder) recordAcc(emit func(acc, accID), fn *ssa.Function, addr ssa.Value, a acc) {
	c := b.resolve(fn, addr)
	c.cands = b.interesting(c.cands)
	if len(c.cands) == 0 && c.root != param && c.root != freeVar {
		return
	}
	a.chain = c
	emit(a, -1)
}

// readLocks are the methods of sync.RWMutex that take or release it for
// reading: they write its reader count alone.
var readLocks = []string{"RLock", "RUnlock", "TryRLock"}

func constOf(v ssa.Value) string {
	if c, ok := v.(*ssa.Const); ok && c.Value != nil {
		return c.Value.ExactString()
	}
	return ""
}

// funcID names a function: its package path, its receiver's type name
// (or ""), and its name.
func funcID(fn *ssa.Function) (pkg, recv, name string) {
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil {
		return "", "", fn.Name()
	}
	if sig := obj.Type().(*types.Signature); sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			recv = n.Obj().Name()
		}
	}
	return obj.Pkg().Path(), recv, obj.Name()
}

// atomicKind says how a sync/atomic function or method, or a method of
// a sync type, uses the memory its first argument points to.
func atomicKind(pkg, recv, name string) (Kind, bool) {
	switch pkg {
	case "sync/atomic":
		switch {
		case strings.HasPrefix(name, "Load"):
			return Load, true
		case strings.HasPrefix(name, "Store"):
			return Store, true
		case strings.HasPrefix(name, "Add"), strings.HasPrefix(name, "Swap"), strings.HasPrefix(name, "CompareAndSwap"),
			strings.HasPrefix(name, "And"), strings.HasPrefix(name, "Or"):
			return Update, true
		}
	case "sync":
		switch recv {
		case "Mutex", "RWMutex":
			// RLocker's Locker is taken to be locked: RLock.
			return Update, true
		case "WaitGroup":
			if name == "Wait" {
				return Load, true
			}
			return Update, true
		}
		return Load, true
	}
	return 0, false
}

// call adds what a call does to the members its arguments reach.
func (b *builder) call(emit func(acc, accID), fn *ssa.Function, c *ssa.CallCommon) {
	callee := c.StaticCallee()
	if callee != nil {
		pkg, recv, name := funcID(callee)
		if k, ok := atomicKind(pkg, recv, name); ok {
			if len(c.Args) > 0 {
				constStore := ""
				switch {
				case k == Store && len(c.Args) > 1:
					constStore = constOf(c.Args[1])
				case strings.HasPrefix(name, "CompareAndSwap") && len(c.Args) > 2 && constOf(c.Args[1]) != "":
					// From one constant to another: a flag raised,
					// once (log once), unless other writes differ.
					constStore = constOf(c.Args[2])
				}
				b.recordAcc(emit, fn, c.Args[0], acc{kind: k, atomic: true, constStore: constStore,
					readLock: pkg == "sync" && recv == "RWMutex" && slices.Contains(readLocks, name)})
			}
			return
		}
		if obj, ok := callee.Object().(*types.Func); ok && b.external != nil && len(c.Args) > 0 && !b.inPkg(callee) {
			if k, ok := b.external(obj); ok {
				b.record(emit, fn, c.Args[0], k, true, "")
				return
			}
		}
		if !b.inPkg(callee) {
			// Another package's function given a member's address
			// reads it at least.
			for _, a := range c.Args {
				if _, ok := a.Type().Underlying().(*types.Pointer); ok {
					b.record(emit, fn, a, Load, false, "")
				}
			}
		}
		if b.inPkg(callee) {
			var bindings []ssa.Value
			if mc, ok := c.Value.(*ssa.MakeClosure); ok {
				bindings = mc.Bindings
			}
			b.inline(emit, fn, callee, c.Args, bindings, false)
		}
	} else if !c.IsInvoke() {
		for _, t := range b.callbacks(c.Value, maxCallbackSteps) {
			b.inline(emit, fn, t.fn, append(slices.Clone(t.recv), c.Args...), t.bindings, !t.local)
		}
	} else {
		// A call through an interface runs one of the package's own
		// implementations, where it has few: a reporter, a sink.
		for _, impl := range b.implementations(c.Value.Type(), c.Method) {
			b.inline(emit, fn, impl, append([]ssa.Value{c.Value}, c.Args...), nil, true)
		}
	}
	// Functions handed to a call that runs them before it returns
	// (sort.Slice's less, sync.Once's Do) are part of this function;
	// those handed to a goroutine starter are operations of their own.
	if spawns(c) {
		return
	}
	for _, a := range c.Args {
		if f, bindings := funcValue(a); f != nil && b.inPkg(f) && f != callee {
			b.inline(emit, fn, f, nil, bindings, false)
		}
	}
}

// inline adds a callee's summary, mapped onto the caller's arguments
// and the closure's bindings; dynamic says the call is chosen at run
// time.
func (b *builder) inline(emit func(acc, accID), fn, callee *ssa.Function, args, bindings []ssa.Value, dynamic bool) {
	// A helper named for maintenance (resize, grow, a slow path) runs
	// now and then inside the calls that reach it.
	rare := maintenance(callee.Name())
	for _, id := range b.summarize(callee).ids {
		a := b.accs[id]
		if rare && !a.exceptional {
			a.exceptional, id = true, -1
		}
		if dynamic && !a.dynamic {
			a.dynamic, id = true, -1
		}
		var base ssa.Value
		switch a.root {
		case param:
			if a.index >= 0 && a.index < len(args) {
				base = args[a.index]
			}
		case freeVar:
			if a.index >= 0 && a.index < len(bindings) {
				base = bindings[a.index]
			}
		default:
			emit(a, id)
			continue
		}
		if base == nil {
			continue
		}
		bc := b.resolve(fn, base)
		m := acc{kind: a.kind, atomic: a.atomic, constStore: a.constStore, locks: a.locks, exceptional: a.exceptional, dynamic: a.dynamic, readLock: a.readLock}
		m.tokens = slices.Concat(bc.tokens, a.tokens)
		m.cands = make([]cand, len(bc.cands), len(bc.cands)+len(a.cands))
		copy(m.cands, bc.cands)
		for _, cd := range a.cands {
			m.cands = append(m.cands, cand{cd.obj, cd.start + len(bc.tokens), cd.site})
		}
		m.root, m.index = bc.root, bc.index
		// The outermost index is the base's, unless the base indexes
		// only its root (shards[0] of a parameter), before any member.
		m.idx, m.constIdx, m.idxParam, m.idxAt = bc.idx, bc.constIdx, bc.idxParam, bc.idxAt
		if m.idx == NoIndex || !indexesMember(bc) {
			m.idx, m.constIdx, m.idxParam, m.idxAt = a.idx, a.constIdx, -1, -1
			if a.idxAt >= 0 {
				m.idxAt = a.idxAt + len(bc.tokens)
			}
			// An index the callee takes as a parameter is what the
			// caller passes: a constant here (lock(processing)), a
			// parameter of the caller's own, or a value computed here
			// (at(hash(key)) of a helper whose parameter's name says
			// nothing).
			if a.idxParam >= 0 && a.idxParam < len(args) {
				switch arg := args[a.idxParam].(type) {
				case *ssa.Const:
					m.idx, m.constIdx = Const, constOf(arg)
				case *ssa.Parameter:
					m.idxParam = slices.Index(fn.Params, arg)
					m.idx = max(m.idx, b.classify(arg, 0))
				default:
					m.idx = max(m.idx, b.classify(arg, 0))
				}
			}
		}
		m.cands = b.interesting(m.cands)
		if len(m.cands) == 0 && m.root != param && m.root != freeVar {
			continue
		}
		emit(m, -1)
	}
}

// indexesMember reports whether a chain's outermost index lies within a
// member path of one of its candidates.
func indexesMember(c chain) bool {
	first := slices.IndexFunc(c.tokens, func(t string) bool { return strings.HasPrefix(t, "[") })
	return first >= 0 && slices.ContainsFunc(c.cands, func(cd cand) bool { return cd.start <= first })
}

// funcValue returns the function a value stands for, with a closure's
// bindings.
func funcValue(v ssa.Value) (*ssa.Function, []ssa.Value) {
	switch x := v.(type) {
	case *ssa.Function:
		return x, nil
	case *ssa.MakeClosure:
		if f, ok := x.Fn.(*ssa.Function); ok {
			return f, x.Bindings
		}
	}
	return nil, nil
}

// spawners are the methods and functions that run the function they are
// given on a goroutine of its own: errgroup.Group.Go, sync.WaitGroup.Go,
// worker pools' Submit, time.AfterFunc.
var spawners = []string{"Go", "Submit", "AfterFunc", "Spawn", "Schedule", "SubmitTask", "Invoke"}

func spawns(c *ssa.CallCommon) bool {
	name := ""
	if f := c.StaticCallee(); f != nil {
		name = f.Name()
	} else if c.IsInvoke() {
		name = c.Method.Name()
	}
	return slices.Contains(spawners, name)
}
