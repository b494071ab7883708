// The records BankLab's injection library (trace_inject.cpp) writes and `banklab trace` reads:
// one per warp-wide shared-memory instruction of the traced launch. Plain C++ with fixed-size
// fields, included by the device callbacks (trace_patches.cu), the injection library and the
// command line's reader (app/cli/trace_run.cpp), so the three agree on every byte.
#pragma once
#include <cstdint>

namespace banklab::trace_abi {

// Where the access came from: the callback that recorded it.
enum RecordKind : std::uint8_t {
  kSharedAccess = 0,  // LDS, STS, ATOMS (SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS)
  kMatrixAccess = 1,  // LDSM, STSM (SANITIZER_INSTRUCTION_MATRIX_MEMORY_ACCESS)
  kAsyncCopy = 2,     // the shared side of cp.async, LDGSTS (SANITIZER_INSTRUCTION_MEMCPY_ASYNC)
};

// The sanitizer's flag bits (Sanitizer_DeviceMemoryFlags) the reader needs.
inline constexpr std::uint32_t kFlagRead = 0x1;
inline constexpr std::uint32_t kFlagWrite = 0x2;

// One warp-instruction: every lane that executed it, with its shared-window offset.
struct Record {
  std::uint64_t pc = 0;            // the instruction's address in the loaded module
  std::uint32_t block = 0;         // blockIdx, linearised (x fastest)
  std::uint32_t warp = 0;          // within the block: linear thread index / 32
  std::uint32_t lanes = 0;         // bit L: lane L executed it (its address[L] is valid)
  std::uint32_t flags = 0;         // the sanitizer's access flags (read, write, atomic bits)
  std::uint16_t size = 0;          // bytes each lane moves (16 for a matrix row)
  std::uint8_t kind = 0;           // RecordKind
  std::uint8_t matrices = 0;       // LDSM/STSM: 1, 2 or 4
  std::uint32_t address[32] = {};  // the shared-window offset of each lane
};
static_assert(sizeof(Record) == 160, "the record's layout is the file format");

// The device buffer the callbacks append to: this header, then `capacity` records.
struct Buffer {
  unsigned long long next = 0;      // records claimed (may pass capacity: the excess is dropped)
  unsigned long long capacity = 0;  // records there is room for
  Record* records = nullptr;
};

// The raw folder a traced run leaves (BANKLAB_TRACE_DIR): meta.txt (key = value lines),
// records.bin (the records, in the order they were claimed), module.cubin (the traced
// function's module, for its line table), kernels.txt (every kernel the program launched).
inline constexpr const char* kMetaFile = "meta.txt";
inline constexpr const char* kRecordsFile = "records.bin";
inline constexpr const char* kCubinFile = "module.cubin";
inline constexpr const char* kKernelsFile = "kernels.txt";

}  // namespace banklab::trace_abi
