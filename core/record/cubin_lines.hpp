#pragma once
// The CUDA lines of a kernel's SASS instructions, read from its cubin's DWARF line table
// (.debug_line, which nvcc writes with -lineinfo), the way Nsight Compute's Source page reads it.
//
// nvcc's line table holds one sequence of rows per function. Where a function is inlined, ptxas
// writes at the call's first instruction a row for the calling line and, at the same address, a
// row for the inlined body's line, marked with NVIDIA's extended opcode 0x90: the row it is
// inlined at (numbered from 1 in the sequence; 0 ends the inlining) and the inlined function's
// name (an offset into .debug_str). Rows later in the body carry the same mark. So an
// instruction has
//
//   where       its innermost row's place, then the place of the row that one is inlined at,
//               and so on out to the kernel: the chain an inlined call's lines make
//   counted_at  the place of every row at the address that covers it (the greatest row address
//               not past it): what Nsight Compute's Source page counts the instruction at, so
//               the first instructions of an inlined call count at the call and at the body's
//               line, and the rest at the body's line alone
//
// nvdisasm's line comments print one place per change of the innermost row, so consecutive
// calls of one inlined body (the histogram's four atomicAdd lines) all print as the first; the
// table itself tells them apart. Checked against the cubins nvcc 13.0 writes for sm_90 and the
// Source pages of tests/scan/measured (tests/trace/test_cubin_lines.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/record/trace.hpp"

namespace banklab::record {

// One function's sequence of the line table.
struct CubinLines {
  struct Row {
    std::int64_t offset = 0;  // bytes from the function's start
    int file = 0;             // into files
    int line = 0;
    int inlined_at = -1;  // into rows: the row of the call this row's code is inlined from
  };
  std::vector<std::string> files;  // as the line table names them: directory + "/" + name
  std::vector<Row> rows;           // in table order (by offset, rows at one address in order)
  std::int64_t end = 0;            // the offset where the sequence ends
};

// The line table of `function` (its mangled name) in `cubin`, the bytes of an ELF64 cubin.
// Empty rows when the cubin has no line table (built without -lineinfo) or none for the
// function; an error naming what is wrong when the bytes are not a cubin or its line table is
// not of the form nvcc writes. Any bytes are read without crashing.
Expected<CubinLines> read_cubin_lines(std::string_view cubin, std::string_view function);

// The places of the instruction at `offset` (see above); both empty where no row covers it.
struct InstructionPlaces {
  std::vector<TraceLocation> where;
  std::vector<TraceLocation> counted_at;
};
InstructionPlaces places_at(const CubinLines& lines, std::int64_t offset);

}  // namespace banklab::record
