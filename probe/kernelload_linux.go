package probe

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

func uname() (unameInfo, error) {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return unameInfo{}, fmt.Errorf("uname: %v", err)
	}
	return unameInfo{release: unix.ByteSliceToString(u.Release[:]), version: unix.ByteSliceToString(u.Version[:]), machine: unix.ByteSliceToString(u.Machine[:])}, nil
}

// runPipes runs one worker per CPU in cpus, each with a pipe of its own
// (pipe2 with O_CLOEXEC, created before and closed after the run), each
// writing size bytes and reading them back until d has passed or ctx is
// done. It returns each worker's iterations per second: the median over
// its chunks of pipeChunk iterations, so that a chunk during which the
// scheduler ran something else on the worker's CPU does not count (on a
// quiet machine it is the iterations divided by the time); a run too
// short for a few chunks falls back to the plain rate.
func runPipes(ctx context.Context, cpus []int, size int, d time.Duration) ([]float64, error) {
	fds := make([][2]int, len(cpus))
	for i := range fds {
		fds[i] = [2]int{-1, -1}
	}
	defer func() {
		for _, p := range fds {
			for _, fd := range p {
				if fd >= 0 {
					unix.Close(fd)
				}
			}
		}
	}()
	for i := range fds {
		if err := unix.Pipe2(fds[i][:], unix.O_CLOEXEC); err != nil {
			return nil, fmt.Errorf("pipe2: %v", err)
		}
	}
	var stop atomic.Bool
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	counts := make([]uint64, len(cpus))
	chunks := make([][]float64, len(cpus))
	errs := make([]error, len(cpus))
	var failed atomic.Bool
	for i, cpu := range cpus {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			// The thread stays locked: the runtime retires it, and its
			// affinity with it, when the goroutine exits.
			errs[i] = pin(cpu)
			if errs[i] != nil {
				failed.Store(true)
			}
			ready.Done()
			<-start
			if errs[i] == nil && !failed.Load() {
				counts[i], chunks[i], errs[i] = pipeLoop(fds[i], size, &stop)
			}
		}()
	}
	ready.Wait()
	elapsed := runFor(ctx, d, start, &stop)
	done.Wait()
	rates := make([]float64, len(cpus))
	for i, err := range errs {
		if err != nil {
			return nil, err
		}
		if len(chunks[i]) >= minChunks {
			rates[i] = 1e9 / median(chunks[i])
		} else {
			rates[i] = float64(counts[i]) / elapsed.Seconds()
		}
	}
	return rates, nil
}

// pipeChunk is how many iterations a worker times at once: a few hundred
// microseconds, so that reading the clock costs nothing noticeable.
const pipeChunk = 256

// minChunks is the fewest chunks whose median stands for a worker's rate.
const minChunks = 5

// pipeLoop writes size bytes into the pipe and reads them back until
// stop is set, timing every chunk of pipeChunk iterations (ns per
// iteration), as will-it-scale's pipe1 (1 byte) and UnixBench's pipe
// (512 bytes) do, retrying on EINTR as pipe1 does. The calls are raw
// system calls, as a C loop makes them: neither can block (the bytes
// written always fit an empty pipe, and a read always finds them), so
// the Go runtime's entersyscall/exitsyscall would only add its own cost.
func pipeLoop(p [2]int, size int, stop *atomic.Bool) (n uint64, chunks []float64, err error) {
	buf := make([]byte, size)
	chunks = make([]float64, 0, 4096)
	last := time.Now()
	for !stop.Load() {
		for {
			r, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(p[1]), uintptr(unsafe.Pointer(&buf[0])), uintptr(size))
			if e == unix.EINTR {
				continue
			}
			if e != 0 || int(r) != size {
				return n, nil, fmt.Errorf("write to a pipe: %d bytes, %v", r, e)
			}
			break
		}
		for {
			r, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(p[0]), uintptr(unsafe.Pointer(&buf[0])), uintptr(size))
			if e == unix.EINTR {
				continue
			}
			if e != 0 || int(r) != size {
				return n, nil, fmt.Errorf("read from a pipe: %d bytes, %v", r, e)
			}
			break
		}
		n++
		if n%pipeChunk == 0 {
			now := time.Now()
			chunks = append(chunks, float64(now.Sub(last).Nanoseconds())/pipeChunk)
			last = now
		}
	}
	return n, chunks, nil
}
