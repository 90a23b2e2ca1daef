package falsesharing_test

import "testing"

// The real-world shapes of testdata/src, as a careful engineer would
// judge them at 64- and 128-byte lines:
//
//   - amd64/* run with -falsesharing.arch=amd64 (64-byte lines);
//   - arm64/* hold the same shapes with the expectations of
//     -falsesharing.arch=amd64,arm64 (64-byte lines on amd64, 128-byte
//     lines on arm64), where padding for 64 bytes turns into FS4;
//   - common/* hold shapes whose expectations do not depend on the
//     line size (evidence, suppression, declared paths, CacheLinePad),
//     run both ways.
//
// Each package is a subtest of its own, so that a failure names the
// shape.
//
// amd64: metrics (sharded counters: FS1 unpadded, through sync/atomic
// functions too, and with full-line elements that a malloc header
// shifts; clean padded to 64, 128 or with cpu.CacheLinePad), stripes
// (per-stripe mutex tables: FS1; clean padded), ring (head/tail written
// by producer and consumer: FS2 adjacent, clean a line apart, clean when
// one function writes both), limiter (clean with a 56-byte pad; FS2 for
// a read-mostly limit beside the counter), pool (sync.Pool's poolLocal:
// clean), padding (FS3 for padding computed from a line boundary, FS5
// for [L - s%L] with s%L == 0), tables (FS1 for a slice of shards and a
// package-level shard array), words (FS1 for plain words in a slice or
// in arrays a member points to, and their guards).
func TestShapesAmd64(t *testing.T) {
	runEach(t, "amd64", "", packagesUnder(t, "amd64"))
}

// arm64: the same shapes with 128-byte lines on arm64: FS4 for the
// shards, stripes, ring, limiter and pool padded for 64 bytes; FS1
// messages that ask for 128-byte elements; FS3 at more phases.
func TestShapesArm64(t *testing.T) {
	runEach(t, "amd64,arm64", "", packagesUnder(t, "arm64"))
}

// common: evidence (true sharing and no-evidence cases clean; a goroutine
// literal is a writer of its own: FS2), ignore (//mglayout:ignore on a
// type and on members, //mglayout:cold: clean), paths (declared paths:
// clean padded or written together; //mglayout:hot: FS2 with a fact),
// declared (a declared pair that falsely shares: FS2 at the later
// member), guarded (a mutex beside the data it guards: clean), linepad
// (cpu.CacheLinePad padding: clean on every GOARCH).
func TestCommonAmd64(t *testing.T) {
	runEach(t, "amd64", "", packagesUnder(t, "common"))
}

func TestCommonArm64(t *testing.T) {
	runEach(t, "amd64,arm64", "", packagesUnder(t, "common"))
}

// TestLines checks -falsesharing.lines: a 56-byte pad is FS4 on amd64
// too once 128-byte lines are asked for beside 64-byte ones.
func TestLines(t *testing.T) {
	runEach(t, "amd64", "64,128", []string{"lines/limiter"})
}
