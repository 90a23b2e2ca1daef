// Package concurrency models who accesses which members of a package's
// struct types, and which of those accesses can happen at once on
// different CPUs: the judgement a false-sharing finding rests on.
//
// The model is built on the package's SSA form. Its units are
// operations: the package's exported functions and methods, the bodies
// of goroutines (started with go, or handed to a goroutine-starting API
// such as errgroup's Go), and functions the package never calls itself
// (callbacks, interface methods). An operation's accesses are its own and
// those of every function it calls, attributed through the call's
// arguments: when Add calls t.c.inc() and inc does atomic.AddUint64(&c.v,
// 1), Add updates t's member c.v atomically. Each access records
//
//   - its kind (load, store, read-modify-write) and whether it is
//     atomic (sync/atomic, a lock's method, or a wrapper that uses them);
//   - the locks of the same object family held by the function that
//     makes it or by any of its callers on the way;
//   - whether it is made on an object the operation itself allocated,
//     before anyone else can see it (a constructor's initialisation);
//   - for an element of an array or slice, how its index is computed:
//     per CPU or at random (a stripe), from a hash, a loop, or unknown.
//
// An operation is on the steady-state path unless it is a constructor,
// a lifecycle method (Close, Stop, Reset, ...), a scrape (String,
// Collect, Describe, Write, Snapshot, ...), a setter (Set...), a getter
// (a method of no argument that writes nothing: Len, HitCount), or a
// goroutine that runs on a timer (time.Ticker, time.Sleep): those run
// now and then, and what they touch is not contended. Names decide only
// that last question; who writes what is read from the code.
package concurrency
