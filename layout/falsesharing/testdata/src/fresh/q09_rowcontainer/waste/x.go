// Package waste reproduces github.com/pingcap/tidb's row-container lock as
// merged in PR#37627: each worker's copy of the container gets its own
// heap-allocated lock holder (RWMutex, writer-lock list, records pointer: 56
// bytes) with a cpu.CacheLinePad before and after it. On amd64 the bare holder
// already falls in the 64-byte size class, one line per object, so both pads
// (128 bytes per holder, the 192-byte class instead of 64) buy nothing; on
// arm64 the two 128-byte pads are what keeps holders off each other's lines.
package waste

import (
	"sync"

	"golang.org/x/sys/cpu"
)

type records struct {
	rows    [][]byte
	spilled bool
}

type lockHolder struct {
	_       cpu.CacheLinePad
	rLock   sync.RWMutex    // read-locked by the one worker owning this copy
	wLocks  []*sync.RWMutex // every copy's rLock, all taken to spill
	records *records
	_       cpu.CacheLinePad
}

func (m *lockHolder) lockAll() {
	for _, l := range m.wLocks {
		l.Lock()
	}
}

func (m *lockHolder) unlockAll() {
	for _, l := range m.wLocks {
		l.Unlock()
	}
}

// RowContainer is shallow-copied once per worker; the copies share records.
type RowContainer struct {
	m *lockHolder
}

// NewRowContainer returns a container whose single lock guards its rows.
func NewRowContainer() *RowContainer {
	c := &RowContainer{m: &lockHolder{records: &records{}}}
	c.m.wLocks = append(c.m.wLocks, &c.m.rLock)
	return c
}

// ShallowCopyWithNewMutex gives a worker its own read lock over the same rows.
func (c *RowContainer) ShallowCopyWithNewMutex() *RowContainer {
	cp := &RowContainer{m: &lockHolder{records: c.m.records}}
	c.m.wLocks = append(c.m.wLocks, &cp.m.rLock)
	return cp
}

// Row reads one row under the worker's own read lock.
func (c *RowContainer) Row(i int) []byte {
	c.m.rLock.RLock()
	defer c.m.rLock.RUnlock()
	if c.m.records.spilled || i >= len(c.m.records.rows) {
		return nil
	}
	return c.m.records.rows[i]
}

// Add appends rows under the read lock (appends are serialised by the caller).
func (c *RowContainer) Add(row []byte) {
	c.m.rLock.RLock()
	c.m.records.rows = append(c.m.records.rows, row)
	c.m.rLock.RUnlock()
}

// Spill takes every worker's lock and drops the in-memory rows.
func (c *RowContainer) Spill() {
	c.m.lockAll()
	c.m.records.rows, c.m.records.spilled = nil, true
	c.m.unlockAll()
}

// Probe starts one goroutine per worker, each reading through its own copy.
func Probe(c *RowContainer, workers, n int) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(own *RowContainer) {
			defer wg.Done()
			for i := 0; i < n; i++ {
				own.Row(i)
			}
		}(c.ShallowCopyWithNewMutex())
	}
	wg.Wait()
}
