// Package concurrency models who accesses which members of a package's
// struct types, and which of those accesses can happen at once on
// different CPUs: the judgement a false-sharing finding rests on.
//
// The model is built on the package's SSA form. Its units are
// operations: the package's exported functions and methods and the
// bodies of goroutines (started with go, or handed to a goroutine-starting
// API such as errgroup's Go); functions of _test.go files, which go vet's
// test variants load, and the methods of types only tests make, are
// none. An operation's accesses are its own and
// those of every function it calls, attributed through the call's
// arguments: when Add calls t.c.inc() and inc does atomic.AddUint64(&c.v,
// 1), Add updates t's member c.v atomically. Calls through an interface
// run the package's few implementations, and calls of a function value
// run what the package stores there (a callback kept in a field). Each
// access records
//
//   - its kind (load, store, read-modify-write) and whether it is
//     atomic (sync/atomic, a lock's method, or a wrapper that uses them);
//   - the locks held where it is made: those whose Lock comes before it
//     on every path, in the function or in a caller on the way;
//   - whether it is made on an object the operation owns: one it
//     allocated and has not published yet (a constructor's
//     initialisation), or one handed over through a channel;
//   - for an element of an array or slice, how its index is computed:
//     per CPU, per goroutine or at random (a stripe), from a hash, a
//     loop, a constant (and which), or unknown;
//   - whether it is made on an exceptional path: once an error has
//     occurred, on a branch that returns a non-nil error or panics, once
//     the object is closed, beside a sync.Cond's Wait, or as the refresh
//     of a cached copy kept in another member.
//
// An operation is on the steady-state path unless it is a constructor
// (by name, or a method deriving a new value of its receiver's type), a
// lifecycle method (Close, Stop, Reset, ...) or a goroutine only such
// methods start, a scrape (String, Collect..., Write..., Snapshot,
// ForEach..., ...), a setter (Set..., Update..., a function that only
// stores its arguments into package variables), a getter (a method of no
// argument that writes nothing but the lock it reads under: Len,
// HitCount), or a goroutine that runs on a timer (time.Ticker,
// time.Sleep), or the writer side (Lock) of a reader/writer lock whose
// doc says writers are rare (reader-biased): those run now and then,
// and what they touch is not contended. Names decide only that last question; who writes what is
// read from the code.
package concurrency
