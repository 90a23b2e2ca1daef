package concurrency

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// model finds the package's operations and what each does.
func (b *builder) model() *Model {
	m := &Model{notConcurrent: b.notConcurrentTypes()}
	funcs := b.sourceFuncs()
	goroutine := map[*ssa.Function]bool{}
	inLoop := map[*ssa.Function]bool{} // started by a go statement in a loop
	b.callers = map[*ssa.Function][]*ssa.Function{}
	b.sites = map[*ssa.Function][]*ssa.CallCommon{}
	b.goSites = map[*ssa.Function][][]ssa.Value{}
	b.goBindings = map[*ssa.Function][][]ssa.Value{}
	b.closures = map[*ssa.Function][]*ssa.MakeClosure{}
	b.spawnsInLoop = map[*ssa.Function]bool{}
	for _, fn := range funcs {
		var loops map[*ssa.BasicBlock]bool
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				if mc, ok := in.(*ssa.MakeClosure); ok {
					if f, ok := mc.Fn.(*ssa.Function); ok {
						b.closures[f] = append(b.closures[f], mc)
					}
				}
				call, ok := in.(ssa.CallInstruction)
				if !ok {
					continue
				}
				c := call.Common()
				_, isGo := in.(*ssa.Go)
				if isGo && loops == nil {
					loops = loopBlocks(fn)
				}
				if isGo && loops[blk] {
					b.spawnsInLoop[fn] = true
				}
				mark := func(f *ssa.Function, spawned bool) {
					// An instance of a generic function stands for it.
					if o := f.Origin(); o != nil {
						f = o
					}
					if spawned {
						goroutine[f] = true
						inLoop[f] = inLoop[f] || loops[blk]
					}
					// A goroutine's starter counts as its caller: it runs as
					// often as they do.
					b.callers[f] = append(b.callers[f], fn)
				}
				if f := c.StaticCallee(); f != nil {
					mark(f, isGo)
					b.sites[f] = append(b.sites[f], c)
					if isGo {
						b.goSites[f] = append(b.goSites[f], c.Args)
						if mc, ok := c.Value.(*ssa.MakeClosure); ok {
							b.goBindings[f] = append(b.goBindings[f], mc.Bindings)
						}
					}
				}
				for _, a := range c.Args {
					if f, _ := funcValue(a); f != nil {
						mark(f, isGo || spawns(c))
					}
				}
			}
		}
	}
	// A function value stored where the package calls it (a callback
	// in a field) runs inside the calls: they are its callers.
	for _, fn := range funcs {
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				if call, ok := in.(ssa.CallInstruction); ok && !call.Common().IsInvoke() && call.Common().StaticCallee() == nil {
					for _, t := range b.callbacks(call.Common().Value, maxCallbackSteps) {
						b.callers[t.fn] = append(b.callers[t.fn], fn)
					}
				}
			}
		}
	}
	for _, fn := range funcs {
		// Tests, benchmarks and their helpers run in the test binary,
		// not beside the package's users; so do the methods of types
		// only tests make, and those named for tests (TestOnlyWait).
		if b.inTestFile(fn) || b.testOnlyMethod(fn) || TestDouble(fn.Name()) {
			continue
		}
		exported := false
		if obj := fn.Object(); obj != nil && fn.Parent() == nil {
			exported = obj.Exported()
		}
		if !exported && !goroutine[fn] {
			// Part of the operations that call it. A function literal
			// that is neither called nor started as a goroutine is kept
			// for later (a callback): when it runs is not known. An
			// unexported method the package never names is an
			// implementation its interface calls reach, among too many
			// to follow: no entry point of its own.
			continue
		}
		op := &Op{Name: opName(fn, goroutine[fn]), Goroutine: goroutine[fn], Rare: b.rare(fn)}
		// A goroutine that a lifecycle call starts to do one job (release
		// pools in parallel) runs when it does; one that works in a loop
		// (a worker, a mark worker draining buffers) is the steady state
		// that the call starts.
		if op.Rare == "" && goroutine[fn] && !b.loops(fn, 2) {
			if r := b.startedBy(fn, 3); r != "" {
				op.Rare = "started by " + r
			}
		}
		if op.Rare == "" && goroutine[fn] && background(fn) {
			op.Rare = "a background goroutine that maintains the whole"
		}
		// One goroutine per object: started once, by a constructor or a
		// lifecycle call (a connection's read loop), not in a loop.
		op.Single = goroutine[fn] && !inLoop[fn] && b.startedBy(fn, 3) != ""
		for _, id := range b.opAccesses(fn, goroutine[fn]) {
			a, members := &b.accs[id], b.memberPaths(id)
			for ci, cd := range a.cands {
				member := members[ci]
				if member == "" {
					continue
				}
				idx, constIdx, elem := NoIndex, "", NoIndex
				if a.idxAt >= 0 && a.idxAt < cd.start {
					elem = a.idx // the object is an element of a table
				}
				if strings.Contains(member, "[") {
					idx, constIdx = a.idx, a.constIdx
					if a.idxAt < cd.start {
						// The index chose an element outside the member:
						// how the member's own elements are chosen is
						// not known.
						idx, constIdx = Unknown, ""
					}
				}
				op.Accesses = append(op.Accesses, Access{Obj: cd.obj, Member: member, Kind: a.kind, Atomic: a.atomic,
					ConstStore: a.constStore, Locks: a.locks, Fresh: a.root == fresh, Exceptional: a.exceptional, Dynamic: a.dynamic, ReadLock: a.readLock, Index: idx, ConstIndex: constIdx, Element: elem, site: cd.site})
			}
		}
		if op.Rare == "" && getter(fn, op.Accesses) {
			op.Rare = "a getter"
		}
		if op.Rare == "" && setsGlobals(fn, op.Accesses) {
			op.Rare = "a setter"
		}
		op.Data = op.Rare == "" && onDataPath(fn)
		m.Ops = append(m.Ops, op)
	}
	m.index()
	return m
}

// inTestFile reports whether a function, or the function it is a
// literal in, is declared in a _test.go file.
func (b *builder) inTestFile(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	pos := fn.Pos()
	if !pos.IsValid() {
		return false
	}
	return strings.HasSuffix(fn.Prog.Fset.Position(pos).Filename, "_test.go")
}

// testOnlyMethod reports whether fn, or the function it is a literal
// in, is a method of a type only tests make values of.
func (b *builder) testOnlyMethod(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Origin().Obj().Pkg() == b.pkg.Pkg && b.testOnly(n.Origin().Obj())
}

// opAccesses returns what an operation's function does. A goroutine
// started from a function literal reaches its parent's variables
// through the closure: its accesses are mapped onto what was bound, as
// a call's are.
func (b *builder) opAccesses(fn *ssa.Function, goroutine bool) []accID {
	parent := fn.Parent()
	if !goroutine || parent == nil || len(fn.FreeVars) == 0 {
		return b.summarize(fn).ids
	}
	var bindings []ssa.Value
	for _, blk := range parent.Blocks {
		for _, in := range blk.Instrs {
			if mc, ok := in.(*ssa.MakeClosure); ok && mc.Fn == fn {
				bindings = mc.Bindings
			}
		}
	}
	if bindings == nil {
		return b.summarize(fn).ids
	}
	var out []accID
	b.inline(func(a acc, id accID) {
		if id < 0 {
			id = b.intern(a)
		}
		out = append(out, id)
	}, parent, fn, nil, bindings, false)
	// What the goroutine does through its own parameters, which inline
	// leaves out (no arguments are mapped): its other accesses it keeps.
	for _, id := range b.summarize(fn).ids {
		if b.accs[id].root == param {
			out = append(out, id)
		}
	}
	return out
}

// memberPaths returns the member path of an access for each of its
// candidates, computed once: operations share most of their accesses.
func (b *builder) memberPaths(id accID) []string {
	if p, ok := b.paths[id]; ok {
		return p
	}
	a := &b.accs[id]
	p := make([]string, len(a.cands))
	for i, cd := range a.cands {
		p[i] = path(a.tokens[cd.start:])
	}
	b.paths[id] = p
	return p
}

// sourceFuncs returns the functions declared in the package's files and
// the function literals inside them, in source order.
func (b *builder) sourceFuncs() []*ssa.Function {
	var out []*ssa.Function
	var add func(*ssa.Function)
	add = func(f *ssa.Function) {
		out = append(out, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range b.files {
		for _, decl := range file.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := b.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if f := b.pkg.Prog.FuncValue(obj); f != nil {
				add(f)
			}
		}
	}
	return out
}

// opName names an operation as a reader of the code would:
// "(*Counter).Add", "the goroutine started in (*Pool).Start".
func opName(fn *ssa.Function, goroutine bool) string {
	name := fn.RelString(fn.Pkg.Pkg)
	if fn.Parent() != nil {
		outer := fn
		for outer.Parent() != nil {
			outer = outer.Parent()
		}
		where := outer.RelString(fn.Pkg.Pkg)
		if goroutine {
			return "the goroutine started in " + where
		}
		return "a function literal in " + where
	}
	if goroutine {
		return "the goroutine running " + name
	}
	return name
}

// Lifecycle, scrape and setter names: operations that run now and then
// (once, or as often as something polls them), not on every call of
// the steady state.
var (
	lifecycle = []string{"Close", "Stop", "Shutdown", "Release", "Reset", "Dispose", "Free", "Tune", "Reboot",
		"Init", "Start", "Open", "Purge", "Clear", "Resize", "Drain", "Register", "Unregister", "MustRegister",
		// Maintenance of the whole: now and then, when its owner says.
		"Trim", "TrimTo", "Shrink", "Compact", "Sync", "Flatten", "Backup", "Restore", "Checkpoint",
		"Vacuum", "Verify", "Repair", "Recover", "Rebuild"}
	// once are the names of calls that run now and then when they take
	// no argument but options: a builder's Build, a database's Info (a
	// logger's Info(msg) is its steady state).
	once    = []string{"Build", "Info", "Finish", "Seal"}
	scrapes = []string{"String", "GoString", "Format", "Error", "MarshalJSON", "MarshalText", "Desc", "Describe",
		"Collect", "Write", "WriteTo", "Snapshot", "Stats", "Dump", "Report", "Print", "Metrics",
		"Percentile", "Percentiles", "Quantile", "Quantiles",
		// Iterations over the whole, which callers run now and then.
		"Range", "RangeRelaxed", "Each", "ForEach", "Iter", "Iterate", "Keys", "Values", "All", "Items"}
)

// ticks are the names of methods that a timer calls: a rate's decay.
var ticks = []string{"Tick", "tick", "Decay", "decay", "Rotate", "rotate"}

// rare says why an operation runs only now and then, or "".
func (b *builder) rare(fn *ssa.Function) string {
	if b.paced(fn, 3) || fn.Parent() == nil && slices.Contains(ticks, fn.Name()) {
		return "runs on a timer"
	}
	if fn.Parent() != nil {
		return ""
	}
	name := fn.Name()
	if fn.Signature.Recv() == nil {
		if name == "init" || strings.HasPrefix(name, "init#") {
			return "package initialisation"
		}
		if ConstructorName(name, false) {
			return "a constructor"
		}
		if lifecycleName(name) {
			return "a lifecycle function"
		}
		if scrapeName(name) && !writesBytes(fn) {
			return "a scrape"
		}
		if converts(name) {
			return "a conversion of the whole"
		}
		return ""
	}
	switch {
	case slices.Contains(camelWords(name), "GC"):
		return "a garbage collection"
	case slices.Contains(once, exported(name)) && (fn.Signature.Params().Len() == 0 || fn.Signature.Params().Len() == 1 && fn.Signature.Variadic()):
		return "a one-off call"
	case b.writerOfReadBiased(fn):
		return "the writer side of a lock whose doc says writers are rare"
	case ConstructorName(name, true), derives(fn):
		return "a constructor"
	case lifecycleName(exported(name)):
		return "a lifecycle method"
	case (slices.Contains(scrapes, name) || slices.Contains(scrapes, exported(name)) || scrapeName(exported(name))) && !writesBytes(fn) &&
		(!strings.HasPrefix(exported(name), "Write") || writesOut(fn)):
		return "a scrape"
	case registers(fn):
		return "registers a callback"
	case len(name) > 3 && (strings.HasPrefix(name, "Set") || strings.HasPrefix(name, "set")) && isUpper(name[3]),
		len(name) > 4 && strings.HasPrefix(name, "With") && isUpper(name[4]),
		// UpdateMaxCost reconfigures; a gauge's Update is its steady state.
		len(name) > 6 && strings.HasPrefix(name, "Update") && isUpper(name[6]):
		return "a setter"
	}
	return ""
}

// ConstructorName reports whether a function's name says it
// constructs something: New..., Make..., Open..., Create..., Must...,
// GetOrCreate...; a method's, New..., GetOrCreate..., Connect... or
// Dial... (nats' Options.Connect).
func ConstructorName(name string, method bool) bool {
	prefixes := []string{"New", "new", "Make", "make", "Must", "must", "Open", "open", "Create", "create", "GetOrCreate"}
	if method {
		prefixes = []string{"New", "new", "GetOrCreate", "Connect", "Dial"}
	}
	for _, p := range prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// scrapePrefixes start the names of methods that write the whole out
// or walk all of it: WritePrometheus, CollectAll, DumpState,
// ForEachScope.
var scrapePrefixes = []string{"Write", "Collect", "Describe", "Dump", "Print", "Marshal", "ForEach", "Range"}

// scrapeSuffixes end the names of methods that report the whole:
// tally's CachedReport, a FlushReport, a database's GetProperty, a
// pool's PoolStats.
var scrapeSuffixes = []string{"Report", "Stats", "Statistics", "Metrics", "Property", "Properties", "Status"}

func scrapeName(name string) bool {
	for _, p := range scrapePrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) && isUpper(name[len(p)]) {
			return true
		}
	}
	for _, s := range scrapeSuffixes {
		if strings.HasSuffix(name, s) && len(name) > len(s) {
			return true
		}
	}
	return false
}

// derives reports whether a method returns a new value of its
// receiver's type, freshly allocated (or nil): CurryWith, Clone, With.
// It builds an object from the receiver, as a constructor does.
func derives(fn *ssa.Function) bool { return derivesWithin(fn, 3) }

// derivesWithin is derives, following returned calls depth deep.
func derivesWithin(fn *ssa.Function, depth int) bool {
	sig := fn.Signature
	if sig.Recv() == nil || sig.Results().Len() == 0 {
		return false
	}
	recv, res := sig.Recv().Type(), sig.Results().At(0).Type()
	if _, ok := recv.(*types.Pointer); !ok {
		return false
	}
	// The result is of the receiver's type, or an interface it
	// implements (HistogramVec.CurryWith returns an ObserverVec).
	if iface, ok := res.Underlying().(*types.Interface); !types.Identical(res, recv) && !(ok && types.Implements(recv, iface)) {
		return false
	}
	returns := 0
	for _, blk := range fn.Blocks {
		if ret, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.Return); ok {
			returns++
			if !derived(ret.Results[0], recv, depth) {
				return false
			}
		}
	}
	return returns > 0
}

// derived reports whether a returned value is a new object: allocated
// here, nil, or what a method that derives returned (MustCurryWith
// returning CurryWith's result).
func derived(v ssa.Value, recv types.Type, depth int) bool {
	callee := func(c *ssa.CallCommon) bool {
		f := c.StaticCallee()
		return depth > 0 && f != nil && f.Blocks != nil && derivesWithin(f, depth-1)
	}
	switch r := v.(type) {
	case *ssa.MakeInterface:
		return types.Identical(r.X.Type(), recv) && derived(r.X, recv, depth)
	case *ssa.Alloc:
		return true
	case *ssa.Const:
		return r.IsNil()
	case *ssa.Extract:
		if call, ok := r.Tuple.(*ssa.Call); ok && r.Index == 0 {
			return callee(call.Common())
		}
	case *ssa.Call:
		return callee(r.Common())
	}
	return false
}

// loops reports whether a function, or one of the package's that it
// calls up to depth calls down, works in a loop: one that serves
// (ServingLoop), a for loop with a condition (for len(work) > 0), or an
// endless one (an event loop). A range over a slice or map walks a whole
// once; a for { } that retries a compare-and-swap does one thing.
func (b *builder) loops(fn *ssa.Function, depth int) bool {
	if body := funcBody(fn); body != nil {
		found := false
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if s, ok := n.(ast.Stmt); ok {
				f, isFor := s.(*ast.ForStmt)
				found = found || isFor && (f.Cond != nil || !retriesCAS(f.Body)) || ServingLoop(s, b.info)
			}
			return !found
		})
		if found {
			return true
		}
	}
	return depth > 0 && b.callsDown(fn, depth-1, b.loops)
}

// callsDown reports whether a function calls one of the package's other
// functions for which test, given depth, holds.
func (b *builder) callsDown(fn *ssa.Function, depth int, test func(*ssa.Function, int) bool) bool {
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			if call, ok := in.(*ssa.Call); ok {
				if f := call.Common().StaticCallee(); f != nil && f != fn && b.inPkg(f) && test(f, depth) {
					return true
				}
			}
		}
	}
	return false
}

// startedBy says why the functions that start a goroutine run only now
// and then, or "": a goroutine that a lifecycle method starts (to
// release pools in parallel) runs when it does. An unexported function
// (or a goroutine's) runs as rarely as all of its callers (or starters),
// followed depth calls up.
func (b *builder) startedBy(fn *ssa.Function, depth int) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if r := b.rare(fn); r != "" {
		return r
	}
	if depth == 0 || fn.Object() == nil || fn.Object().Exported() || len(b.callers[fn]) == 0 {
		return ""
	}
	why := ""
	for _, caller := range b.callers[fn] {
		r := b.startedBy(caller, depth-1)
		if r == "" {
			return ""
		}
		why = r
	}
	return why
}

// lifecycleName reports whether a name is a lifecycle verb or starts
// with one: Close, ReleaseTimeout, StopAndWait.
func lifecycleName(name string) bool {
	name = exported(name)
	for _, l := range lifecycle {
		if name == l || strings.HasPrefix(name, l) && len(name) > len(l) && isUpper(name[len(l)]) {
			return true
		}
	}
	return false
}

// converts reports whether a function's name says it turns a whole
// structure into another (ToPlainMap, ToSlice): it walks everything,
// now and then.
func converts(name string) bool {
	return len(name) > 2 && strings.HasPrefix(name, "To") && isUpper(name[2])
}

func exported(name string) string {
	if name == "" {
		return name
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// getter reports whether a method or function takes no arguments (or is
// named for a count or size), returns values and writes nothing but the
// lock it reads under: Len,
// Cap, HitCount, RunningByIndex. Such accessors serve whoever
// polls them (stats, tests) or callers that write the same object
// anyway, and contend with nothing of their own.
func getter(fn *ssa.Function, accesses []Access) bool {
	sig := fn.Signature
	if sig.Results().Len() == 0 || fn.Parent() != nil || fn.Name() == "main" {
		return false
	}
	if sig.Params().Len() > 0 && !statsName(fn.Name()) {
		return false
	}
	return writesOnlyLocks(accesses)
}

// writesOnlyLocks reports whether accesses write nothing but the locks
// they read under: taking the lock that guards what it reads is no
// write of state.
func writesOnlyLocks(accesses []Access) bool {
	locks := map[Lock]bool{}
	for _, a := range accesses {
		if a.Kind.Writes() {
			continue
		}
		for _, l := range a.Locks {
			l.Read = false
			locks[l] = true
		}
	}
	for _, a := range accesses {
		if a.Kind.Writes() && !locks[Lock{Obj: a.Obj, Member: a.Member}] {
			return false
		}
	}
	return true
}

// setsGlobals reports whether a package-level function takes arguments,
// returns nothing and only stores into package-level variables: it sets
// the package's settings (ExposeMetadata(true), SetLogger(l)).
func setsGlobals(fn *ssa.Function, accesses []Access) bool {
	sig := fn.Signature
	if sig.Recv() != nil || fn.Parent() != nil || sig.Params().Len() == 0 || sig.Results().Len() > 0 || len(accesses) == 0 {
		return false
	}
	for _, a := range accesses {
		if _, global := a.Obj.(*types.Var); !global || a.Kind != Store {
			return false
		}
	}
	return true
}

// paced reports whether a function, or one it calls up to depth calls
// down, paces itself with the time package: a goroutine whose body
// calls a report loop on a ticker runs on that ticker.
func (b *builder) paced(fn *ssa.Function, depth int) bool {
	return timer(fn) || depth > 0 && b.callsDown(fn, depth-1, b.paced)
}

// statsNouns start the names of accessors that report a count or a size
// (RunningByIndex, FreeByIndex, LenOf): a getter even with arguments.
var statsNouns = []string{"Len", "Cap", "Size", "Count", "Running", "Free", "Waiting", "Idle", "Num", "Total"}

func statsName(name string) bool {
	for _, n := range statsNouns {
		if name == n || strings.HasPrefix(name, n) && len(name) > len(n) && isUpper(name[len(n)]) {
			return true
		}
	}
	return false
}

// timer reports whether a function paces itself with the time package:
// a ticker, a timer, time.Sleep or time.After.
func timer(fn *ssa.Function) bool {
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			call, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			f := call.Common().StaticCallee()
			if f == nil {
				continue
			}
			// Functions, not methods: Time.After compares two times.
			if pkg, recv, name := funcID(f); pkg == "time" && recv == "" && slices.Contains([]string{"NewTicker", "Tick", "Sleep", "After", "NewTimer"}, name) {
				return true
			}
		}
	}
	return false
}

// registers reports whether a method is named for an event, takes only
// functions and calls none of them: OnUpdate(fn), OnEviction(fn) keep
// callbacks for later, once; OnRequest(handle) that runs its handler is
// the request's steady path.
func registers(fn *ssa.Function) bool {
	words := camelWords(exported(fn.Name()))
	ps := fn.Signature.Params()
	if len(words) < 2 || words[0] != "On" || ps.Len() == 0 {
		return false
	}
	for p := range ps.Variables() {
		if _, ok := p.Type().Underlying().(*types.Signature); !ok {
			return false
		}
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			if call, ok := in.(ssa.CallInstruction); ok {
				if p, ok := call.Common().Value.(*ssa.Parameter); ok && slices.Contains(fn.Params, p) {
					return false
				}
			}
		}
	}
	return true
}

// writesOut reports whether a Write method writes its object out to
// what it is given, as a metric's Write(*dto.Metric) or a
// WriteTo(io.Writer) does, rather than taking a value in, as a queue's
// Write(v) does, which is its steady state: it stores none of its
// arguments, sends none on a channel, and hands none to sync/atomic to
// store.
func writesOut(fn *ssa.Function) bool {
	params := fn.Params
	if fn.Signature.Recv() != nil && len(params) > 0 {
		params = params[1:]
	}
	isParam := func(v ssa.Value) bool {
		p, ok := v.(*ssa.Parameter)
		return ok && slices.Contains(params, p)
	}
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			switch in := in.(type) {
			case *ssa.Store:
				if isParam(in.Val) {
					return false
				}
			case *ssa.Send:
				if isParam(in.X) {
					return false
				}
			case *ssa.Call:
				c := in.Common()
				if f := c.StaticCallee(); f != nil {
					if pkg, _, _ := funcID(f); pkg == "sync/atomic" && slices.ContainsFunc(c.Args[1:], isParam) {
						return false
					}
				}
			}
		}
	}
	return true
}

// writesBytes reports whether a method takes a []byte first: an
// io.Writer's Write is the steady state of whatever it writes to, not a
// scrape.
func writesBytes(fn *ssa.Function) bool {
	ps := fn.Signature.Params()
	if ps.Len() == 0 {
		return false
	}
	s, ok := ps.At(0).Type().Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// retriesCAS reports whether a loop body calls a compare-and-swap: a
// retry loop.
func retriesCAS(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "CompareAndSwap") {
				found = true
			}
		}
		return !found
	})
	return found
}

// backgroundVerbs start the names of the goroutines that maintain a
// structure in the background, at the pace of its growth or of a timer
// rather than of each call: a database's flush and compaction, a
// cache's cleanup, a connection's keepalive.
var backgroundVerbs = []string{"flush", "compact", "clean", "cleanup", "gc", "sweep", "reap", "janitor", "expire",
	"prune", "rotate", "refresh", "monitor", "watch", "heartbeat", "keepalive", "sync", "checkpoint", "reclaim"}

// background reports whether a goroutine's function is named for
// background maintenance (go db.flush()). A literal started to do its
// caller's work in parallel (a Flush merging shards) is that work.
func background(fn *ssa.Function) bool {
	words := camelWords(fn.Name())
	return fn.Parent() == nil && len(words) > 0 && slices.Contains(backgroundVerbs, strings.ToLower(words[0]))
}

// maintenanceVerbs start the names of helpers that maintain a structure
// now and then on the way of a steady call: a table grown or rehashed
// when it fills, a slow path taken when the fast one fails.
var maintenanceVerbs = []string{"resize", "grow", "rehash", "expand", "shrink", "compact", "rebuild", "migrate", "rebalance", "evacuate"}

// maintenance reports whether a helper's name says it maintains the
// structure now and then: it starts with a maintenance verb (resize,
// growTable), or names a slow path or a collection (lockSlow, runGC).
func maintenance(name string) bool {
	lower := strings.ToLower(name)
	for _, v := range maintenanceVerbs {
		if strings.HasPrefix(lower, v) && (len(name) == len(v) || isUpper(name[len(v)])) {
			return true
		}
	}
	for _, w := range camelWords(name) {
		if strings.EqualFold(w, "slow") || w == "GC" {
			return true
		}
	}
	return false
}

// camelWords splits a camel-case name into its words, an acronym one
// word: runGC is run, GC; lockSlow is lock, Slow; HTTPServer is HTTP,
// Server.
func camelWords(name string) []string {
	var words []string
	start := 0
	for i := 1; i < len(name); i++ {
		upper, prevUpper := isUpper(name[i]), isUpper(name[i-1])
		nextLower := i+1 < len(name) && !isUpper(name[i+1]) && name[i+1] != '_'
		if upper && (!prevUpper || nextLower) || name[i] == '_' {
			words = append(words, name[start:i])
			start = i
		}
		if name[i] == '_' {
			start = i + 1
		}
	}
	return append(words, name[start:])
}
