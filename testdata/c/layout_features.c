/*
 * layout_features.c - every layout feature the DWARF loader
 * (layout/elfdwarf) reads, for its tests: they compile this file with
 * gcc -g -c (DWARF 4 and 5, compressed sections, -m32) and compare what
 * mglayout reads with gcc's offsetof/sizeof/__alignof__ and with pahole.
 *
 * Every struct has a variable below, so that gcc emits its type even
 * without -fno-eliminate-unused-debug-types.
 */
#include <stddef.h>

typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned char u8;

/* Plain members and the holes between them. */
struct holes {
	char c;
	int i;
	short s;
	long l;
	char tail;
};

/* Typedefs, nested structs by value, through typedefs and qualifiers. */
struct point { int x, y; };
typedef struct point point_t;
typedef struct { long a; char b; } padded_t;	/* anonymous, named by the typedef */
typedef padded_t padded2_t;

struct nested {
	point_t p;
	struct point q;
	const struct point cq;
	padded_t pad;
	padded2_t pad2;
	struct { long a; char b; } inl;		/* a named member of an anonymous type */
	u64 big;
	u8 last;
};

/* Anonymous members: C11 anonymous structs and unions, nested. */
struct anon {
	int a;
	union {
		int x;
		float y;
		struct {
			short lo;
			short hi;
		};
	};
	struct {
		char p, q;
		union { char r; short s; };
	};
	long z;
};

/* A union with structs in it. */
union either {
	int i;
	char bytes[5];
	struct { short s1, s2; } halves;
};

struct with_union {
	char tag;
	union either u;
	double d;
};

/* Arrays: multi-dimensional, of structs, of pointers, zero-length and flexible. */
struct arrays {
	char c;
	short grid[2][3];
	int cube[2][2][2];
	struct point pts[3];
	char *names[4];
	long zero[0];		/* gcc's zero-length array */
};

struct flex {
	int n;
	char c;
	int data[];		/* C99 flexible array member */
};

/* Bitfields: sharing a unit with bytes, new units, signed, wide, _Bool and enum types. */
enum color { RED, GREEN, BLUE };

struct bits {
	char c;
	unsigned int a : 3;
	unsigned int b : 20;
	int s : 5;
	u64 big : 40;
	unsigned short h : 4;
	_Bool flag : 1;
	enum color col : 2;
	char tail;
};

/* A bitfield that crosses its storage unit: only a packed struct does that. */
struct __attribute__((packed)) bits_packed {
	unsigned int x : 7;
	unsigned int y : 30;
	unsigned char z;
	unsigned long long w : 50;
};

/* A bitfield whose storage unit (an int) reaches past the packed struct. */
struct __attribute__((packed)) tiny_packed {
	char c;
	unsigned int x : 4;
};

/* Bitfields that end the struct: bit padding. */
struct bits_tail {
	u32 n;
	u32 f1 : 1;
	u32 f2 : 2;
};

/* Packed structs, and a packed struct inside an unpacked one. */
struct __attribute__((packed)) packed {
	char c;
	int i;
	short s;
	long l;
};

struct holds_packed {
	char c;
	struct packed p;
	int after;
};

/* A packed struct whose offsets are all natural, inside an unpacked one:
 * only its misaligned place says it is packed, and the holder stays
 * 4-aligned. (Declared on its own, such a struct cannot be told from an
 * unpacked one: its DWARF is the same.) */
struct holds_packed_natural {
	char c;
	struct __attribute__((packed)) {
		int a;
		int b;
	} p;
	int z;
};

/* GCC vectors are aligned to their size, not their element's. */
typedef float v4sf __attribute__((vector_size(16)));
typedef int v2si __attribute__((vector_size(8)));
struct vectors {
	char c;
	v4sf v;
	char d;
	v2si w;
};

/* Forced alignment: on members, on types, on typedefs; cache-line aligned. */
struct forced {
	char c;
	int x __attribute__((aligned(64)));
	char d;
	long e;
};

struct aligned_type {
	char c;
} __attribute__((aligned(32)));

typedef int aligned16_int __attribute__((aligned(16)));

struct uses_aligned {
	int i;
	struct aligned_type t;
	char z;
	aligned16_int a16;
};

struct ____cacheline {
	unsigned int seq;
	u64 data[3];
} __attribute__((aligned(64)));

/* Enums, pointers of every kind, const and volatile. */
enum small_enum { SMALL_A = 1 };
enum __attribute__((packed)) packed_enum { PACKED_A = 1, PACKED_B = 200 };

struct pointers {
	enum color color;
	enum packed_enum pe;
	const char *name;
	char *const fixed;
	const volatile int *cvp;
	void *opaque;
	void (*callback)(int, void *);
	int (*table)[3];
	struct pointers *next;
	char **argv;
	volatile unsigned long counter;
	const double ratio;
	_Bool ok;
	long double ld;
};

/* The last member needs the alignment of its struct: tail padding. */
struct tail_padding {
	long a;
	char b;
};

/* Nothing at all. */
struct empty {};

struct has_empty {
	char c;
	struct empty e;
	int x;
};

struct holes v_holes;
struct nested v_nested;
struct anon v_anon;
union either v_either;
struct with_union v_with_union;
struct arrays v_arrays;
struct flex v_flex;
struct bits v_bits;
struct bits_packed v_bits_packed;
struct bits_tail v_bits_tail;
struct tiny_packed v_tiny_packed;
struct packed v_packed;
struct holds_packed v_holds_packed;
struct holds_packed_natural v_holds_packed_natural;
struct vectors v_vectors;
struct forced v_forced;
struct aligned_type v_aligned_type;
struct uses_aligned v_uses_aligned;
struct ____cacheline v_cacheline;
struct pointers v_pointers;
struct tail_padding v_tail_padding;
struct empty v_empty;
struct has_empty v_has_empty;
padded_t v_padded;
