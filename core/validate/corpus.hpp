#pragma once
// The validation corpus: the accesses `banklab validate` measures on the GPU and compares with
// analyze(). Pure C++, deterministic for a given seed on every platform (its own generator, not
// <random>'s implementation-defined distributions), so CI can test it and a mismatch found on
// the H200 can be replayed anywhere from its pattern line.
//
//   fixed part (always, in this order)
//     preset         every preset, plus the ld/st twin of each plain ld/st preset
//     stride         lane L at L*s units, s = 1..64, units of max(width, 4) bytes, and for
//                    1- and 2-byte accesses also units of the element; ld and st, every width
//     tile-column    column reads and writes of R x C tiles of every dtype, padded by 0..8
//                    elements, unswizzled, XOR-swizzled and TMA-swizzled, element and 16-byte
//                    vector widths
//     matrix-pitch   ldmatrix .x1/.x2/.x4 and stmatrix .x4 on 64/80/128/144-byte rows: each
//                    chunk column, the 16x16 fragment order, and the 128-byte chunk swizzle
//   random part (--count of them, cycling through the families below)
//     random-offsets lanes at random aligned offsets in a window of 128 B .. 228 KB
//     random-pool    lanes drawing from 1..6 addresses: broadcasts, and sub-word sharing
//     random-pair    lane l and l^p on one address (p = 1, 2, 3, 4, 16): probes load packing
//     random-idle    random offsets with a random set of lanes switched off
//   each random pattern takes a random op (ld and st of every width, ldmatrix, stmatrix).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/access.hpp"

namespace banklab {

struct CorpusEntry {
  std::string family;  // "preset", "stride", "tile-column", ... (the list above)
  std::string name;    // what it is: "fp32-naive", "stride 33 x 4 B", "pair l^2", ...
  WarpAccess access;   // passes check_access()
};

struct CorpusOptions {
  std::size_t random_count = 8000;
  std::uint64_t seed = 1;
};

// The fixed part, then options.random_count random patterns. Every entry passes check_access().
std::vector<CorpusEntry> validation_corpus(const CorpusOptions& options);

// The size of the fixed part (what validation_corpus returns with random_count = 0).
std::size_t fixed_corpus_size();

}  // namespace banklab
