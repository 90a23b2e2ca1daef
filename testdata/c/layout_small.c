/*
 * layout_small.c - a little of everything, compiled into the seeds of the
 * DWARF loader's fuzz test (layout/elfdwarf/testdata/*.o; see
 * layout/elfdwarf/fuzz_test.go for how they are made).
 */
typedef unsigned long long u64;

struct small {
	char c;
	unsigned int a : 3, b : 20;
	union { int x; float y; };
	struct { short lo, hi; } pair;
	u64 big __attribute__((aligned(16)));
	const char *name;
	void (*fn)(int);
	short grid[2][3];
	int tail[];
};

typedef struct { long counter; } atomic_like;

struct __attribute__((packed)) tight {
	char c;
	int i;
	unsigned x : 7, y : 30;
};

struct small v_small;
atomic_like v_atomic;
struct tight v_tight;
