// Package paths holds structs whose access paths are declared with
// //mglayout:path: their plain members are hot only because the
// directives say so, and the declared paths are the evidence. Checked
// with -falsesharing.arch=amd64 and with amd64,arm64.
package paths

// PaddedQueue declares a producer writing tail and a consumer writing
// head, as a queue would, and keeps them 128 bytes apart: clean on every
// GOARCH at every phase.
//
//mglayout:path producer cpus=1 write=tail
//mglayout:path consumer cpus=1 write=head
type PaddedQueue struct {
	head uint64
	_    [120]byte
	tail uint64
}

// Together declares one path writing both members: true sharing, clean.
//
//mglayout:path owner cpus=all add=hits,bytes
type Together struct {
	hits  uint64
	bytes uint64
}

// Hot marks a plain member hot with a directive: it is then inferred like
// an atomic, and Snapshot reading total without writing seq is evidence.
// The exported type carries the hot member to importers as a fact.
type Hot struct {
	//mglayout:hot
	seq   uint64 // want `seq shares a line with total \(.*\), and \(\*Hot\)\.Next stores seq while Snapshot reads total: false sharing; put them on separate lines \(FS2, declared\)`
	total uint64
}

func (h *Hot) Next() uint64 { h.seq++; return h.seq }

func Snapshot(h *Hot) uint64 { return h.total }
