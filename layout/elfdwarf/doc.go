// Package elfdwarf reads struct layouts from the DWARF debug information of
// ELF files: objects, executables, shared libraries and vmlinux, written by
// C compilers (gcc, clang) or by the Go linker.
//
// [Load] reads a file in one pass over its debug entries and returns the
// layout of every named struct, or of the ones asked for, in the model of
// package layout: every member at every depth with its path, type as the
// source spells it, offset, size and alignment, bitfields with their bit
// offset and width, anonymous structs and unions under the paths C code
// names their members by. Sizes and offsets come from the file; alignments
// from DW_AT_alignment where the compiler wrote one, otherwise from the
// types and the target's ABI. The figures pahole prints (holes, bit holes,
// padding, forced alignments) follow from the model.
//
// The parts follow the manner of debug/dwarf:
//
//   - open.go: the ELF file, its DWARF and its architecture;
//   - types.go: debug entries as types, and how C and Go spell them;
//   - bitfields.go: where a bitfield's bits are;
//   - align.go: natural, forced and packed alignment;
//   - load.go: the streaming pass and the layouts.
//
// DWARF 2 to 5 are read, in compressed sections too (.zdebug_* and
// SHF_COMPRESSED, which debug/elf inflates). Relocatable objects (.o) are
// relocated by debug/elf. Types declared inside functions and type units
// (-fdebug-types-section) are not read.
package elfdwarf
