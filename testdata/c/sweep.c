/*
 * sweep.c: the C reference of mglayout's sweep (probe/sweep.go), for the
 * fidelity test (go test ./probe/ -run Fidelity -cfidelity -v).
 *
 * One run per invocation: a writer thread adds 1 to the word at offset 0
 * of a page-aligned buffer while a reader thread loads the word d bytes
 * further, each pinned to its CPU, for the given time; then it prints the
 * writer's and the reader's operations per second:
 *
 *	writer=<ops/s> reader=<ops/s> elapsed=<seconds>
 *
 * The loops are the Go probe's: an atomic add (LOCK XADD on x86-64, as
 * sync/atomic.AddUint64 compiles to) or an atomic load per operation, and
 * a look at the stop flag, on a page of its own, every 256 operations.
 * The threads are started together: each pins itself, says it is ready,
 * and waits for the go signal; the clock runs from the signal to the stop.
 *
 * Build: gcc -O2 -pthread -o sweep sweep.c
 * Usage: sweep WRITER_CPU READER_CPU DISTANCE MILLISECONDS
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define PAGE 4096
#define BATCH 256 /* probe/sweep.go: sweepBatch */

/* The flags live on pages of their own, away from the buffer. */
static struct {
	char pad0[PAGE];
	int ready;
	char pad1[PAGE];
	int go;
	char pad2[PAGE];
	int stop;
	char pad3[PAGE];
} flags __attribute__((aligned(PAGE)));

struct worker {
	int cpu;
	uint64_t *p;
	int writer;
	uint64_t n;
	int err;
};

static inline void add1(uint64_t *p) {
#if defined(__x86_64__)
	/* sync/atomic.AddUint64 is LOCK XADDQ with the 1 in a register,
	 * even when the result is unused; __atomic_fetch_add with an unused
	 * result would be LOCK ADDQ. */
	uint64_t one = 1;
	__asm__ __volatile__("lock xaddq %0, %1" : "+r"(one), "+m"(*p) : : "memory");
#else
	__atomic_fetch_add(p, 1, __ATOMIC_SEQ_CST);
#endif
}

static uint64_t add_loop(uint64_t *p) {
	uint64_t n = 0;
	while (!__atomic_load_n(&flags.stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < BATCH; i++)
			add1(p);
		n += BATCH;
	}
	return n;
}

/* An atomic load whose value is unused: GCC keeps atomic loads, as Go
 * keeps atomic.LoadUint64 (a plain MOVQ on x86-64). */
static uint64_t load_loop(uint64_t *p) {
	uint64_t n = 0;
	while (!__atomic_load_n(&flags.stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < BATCH; i++)
			(void)__atomic_load_n(p, __ATOMIC_SEQ_CST);
		n += BATCH;
	}
	return n;
}

static void *run(void *arg) {
	struct worker *w = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	w->err = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
	__atomic_fetch_add(&flags.ready, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&flags.go, __ATOMIC_ACQUIRE))
		;
	if (w->err == 0)
		w->n = w->writer ? add_loop(w->p) : load_loop(w->p);
	return NULL;
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	if (argc != 5) {
		fprintf(stderr, "usage: sweep WRITER_CPU READER_CPU DISTANCE MILLISECONDS\n");
		return 2;
	}
	int wcpu = atoi(argv[1]), rcpu = atoi(argv[2]);
	long d = atol(argv[3]), ms = atol(argv[4]);
	if (d < 0 || d % 8 != 0 || ms <= 0) {
		fprintf(stderr, "sweep: the distance must be a non-negative multiple of 8 and the time positive\n");
		return 2;
	}
	/* As probe/sweep.go: the far control plus two pages, from mmap. */
	size_t size = ((size_t)d + 2 * PAGE + PAGE - 1) / PAGE * PAGE;
	char *buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("sweep: mmap");
		return 1;
	}
	memset(buf, 0, size);

	struct worker ws[2] = {
		{.cpu = wcpu, .p = (uint64_t *)buf, .writer = 1},
		{.cpu = rcpu, .p = (uint64_t *)(buf + d), .writer = 0},
	};
	pthread_t th[2];
	for (int i = 0; i < 2; i++) {
		int err = pthread_create(&th[i], NULL, run, &ws[i]);
		if (err != 0) {
			fprintf(stderr, "sweep: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	while (__atomic_load_n(&flags.ready, __ATOMIC_SEQ_CST) < 2)
		sched_yield();
	double t0 = now();
	__atomic_store_n(&flags.go, 1, __ATOMIC_RELEASE);
	struct timespec sleep = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&sleep, &sleep) != 0 && errno == EINTR)
		;
	__atomic_store_n(&flags.stop, 1, __ATOMIC_SEQ_CST);
	double elapsed = now() - t0;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		if (ws[i].err != 0) {
			fprintf(stderr, "sweep: cannot pin a thread to CPU %d: %s\n", ws[i].cpu, strerror(ws[i].err));
			return 2;
		}
	}
	printf("writer=%.6g reader=%.6g elapsed=%.6f\n", ws[0].n / elapsed, ws[1].n / elapsed, elapsed);
	munmap(buf, size);
	return 0;
}
