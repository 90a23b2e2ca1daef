// Package solewriter holds a member that one goroutine writes with plain
// stores, on every item it handles, beside a member that other CPUs read
// on every call (class 4): it is hot though no atomic writes it.
package solewriter

// Store's committer goroutine, the only writer, bumps version with a
// plain store on every transaction it commits; every Get, on other CPUs,
// loads index from the same line.
type Store struct {
	version uint64 // want `version shares a line with index and commits \(64 B lines on amd64 when the Store starts .*\), and the goroutine running \(\*Store\).commitLoop stores version while \(\*Store\).Get reads index, .*\(FS2, proven\)`
	index   map[string]int
	commits chan string
}

func Open() *Store {
	s := &Store{index: map[string]int{}, commits: make(chan string)}
	go s.commitLoop()
	return s
}

func (s *Store) commitLoop() {
	for range s.commits {
		s.version++
	}
}

func (s *Store) Get(k string) int { return s.index[k] }

func (s *Store) Commit(k string) { s.commits <- k }
