#pragma once
// The scan's widths against the compiler's own: nvcc -ptx -lineinfo writes every shared-memory
// load and store of a kernel with its width (ld.shared.f32, ld.shared.v2.f32, st.shared.u16, ...),
// its address ([%r6+4]) and the source line before it (.loc FILE LINE COL, also inside inlined
// functions, at their own lines). `banklab scan --check-widths` compiles the file with
//
//   nvcc -O3 -ptx -lineinfo -arch=sm_90 FILE.cu -o FILE.ptx
//
// and checks each line's loads and stores: the width the scan counts must be one PTX access of
// that width on the line, or k adjacent PTX accesses of width/k each from one base register,
// none volatile (ptxas merges those into one LDS.64/LDS.128 where they are aligned: measured on
// the H200, tests/scan/corpus/widths.cu). PTX comes before ptxas, so what ptxas merges is seen
// as the adjacent accesses it merges, not as the merged instruction; a line the PTX has a
// shared access on that the scan neither counts nor lists is said too.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.hpp"
#include "core/code/scan.hpp"

namespace banklab {

// One ld.shared / st.shared of the PTX.
struct PtxAccess {
  int line = 0;  // of the source file, from the .loc before it
  bool load = true;
  int width = 4;  // bytes a lane moves: the vector count times the type's bytes
  bool is_volatile = false;
  std::string base;         // the address's register ("%r6") or symbol
  std::int64_t offset = 0;  // the address's constant offset
  std::string text;         // the instruction as written, trimmed
};

struct PtxKernel {
  std::string name;  // the kernel's name (demangled: its first name)
  std::vector<PtxAccess> accesses;
};

// The kernels (.entry) of a PTX file and the shared accesses of each on the lines of the file
// whose path ends with `file_name` (the .file table names each source).
Expected<std::vector<PtxKernel>> parse_ptx(std::string_view ptx, std::string_view file_name);

struct WidthCheck {
  int line = 0;
  bool load = true;
  int width = 0;         // the scan's; 0 for a PTX access the scan has no entry for
  bool checked = false;  // the PTX has this line's loads (or stores) to compare with
  bool agrees = false;
  std::string detail;  // what the PTX has there, and why it agrees or not
};

// The scan's widths of one kernel against its PTX, by line.
std::vector<WidthCheck> check_widths(const KernelScan& scan, const PtxKernel& ptx);

}  // namespace banklab
