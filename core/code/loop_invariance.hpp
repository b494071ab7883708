#pragma once
// Which loops of kernel code issue the same shared-memory accesses on every trip, so that the
// machine (machine.hpp) may run the body once and count its accesses times the trips instead of
// stepping every trip: the same counts, exactly, at a fraction of the work (a tiled SGEMM's loop
// over the tiles of K = 4096 is 256 identical trips).
//
// A loop qualifies when, read from the code (nothing is run):
//   - its trips depend on its condition and step alone: the body assigns none of the variables
//     they read, and has no break, continue (of this loop), return, asm output or statement
//     BankLab could not read;
//   - nothing in the body that decides an access depends on the trip: the variables the loop
//     changes (declared outside its body and assigned in it, its own counter among them), and
//     every variable of the body computed from them, appear in no condition (if, loop, ?:, &&,
//     ||), no shared-memory address (a subscript or * of a shared array or of any pointer but a
//     kernel's pointer parameters, which point to global memory), no asm operand and no
//     argument of a __device__ function;
//   - it assigns no file-scope variable, nor does any __device__ function it calls, and the
//     only variables its body carries from trip to trip are values (a float accumulator), not
//     integers or pointers that an address after the loop may use.
// A variable whose address is taken (&x) or that is passed to a __device__ function counts as
// changed (a reference or a pointer may write it).
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/code/syntax.hpp"

namespace banklab::code {

// What a loop's body (its condition and step included) does to memory, read from the code:
// what decides whether nvcc may merge its trips' accesses or hoist a load out of it.
struct LoopEffects {
  // A store to memory: shared, global, or through a pointer or reference (a local array or
  // variable is no store).
  bool stores = false;
  // A store that may write any shared array: through a pointer or reference that is no
  // kernel's pointer parameter, or through an address BankLab cannot read.
  bool stores_anywhere = false;
  std::vector<std::string> stored_arrays;  // the shared arrays it stores to, by name
  // A barrier, fence, atomic, asynchronous copy, asm statement, call of a __device__ function
  // (which may do any of these), or a statement BankLab could not read.
  bool synchronizes = false;
};
LoopEffects loop_effects(const Program& program, int loop);

class LoopInvariance {
 public:
  explicit LoopInvariance(const Program& program) : p_(program) {}

  // Whether the loop statement `loop` (for, while, do) qualifies; worked out once a loop.
  bool invariant(int loop);
  // The variables declared outside the loop's body that the loop assigns (invariant loops
  // only): what the machine restores (counters) or forgets (values) after it has run the body
  // once.
  const std::vector<int>& changed(int loop) { return analysis(loop).changed; }
  // Of those, the ones its condition and step assign (its counters).
  const std::vector<int>& counters(int loop) { return analysis(loop).counters; }

 private:
  struct Analysis {
    bool invariant = false;
    std::vector<int> changed;
    std::vector<int> counters;
  };
  const Analysis& analysis(int loop);
  Analysis analyze(int loop);
  // Whether any function assigns a file-scope variable (then a loop that calls one does not
  // qualify); worked out once.
  bool writes_globals();

  const Program& p_;
  std::unordered_map<int, Analysis> done_;
  std::optional<bool> writes_globals_;
};

}  // namespace banklab::code
