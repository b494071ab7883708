#pragma once
// The machine that runs kernel code (syntax.hpp) the way a GPU runs it: one warp at a time,
// every value a vector of 32 lanes, an active mask that ifs and loops narrow and widen again
// where the lanes reconverge, and every shared-memory access it meets recorded with the address
// of each active lane. The Code window's snippet and a whole .cu file both run on it.
//
//   value     Lanes: an integer of a C++ type (integer.hpp), or a place in a shared array (a
//             pointer, a row, an element, a struct's member at its offset), or a matrix
//             address, or a variable as a place (&x, *p, a reference); per lane either a value or
//             "unknown" with its reason: an error in the code (an index outside the array, a
//             division by zero: `error`) or something no tool can know from the code (a value
//             loaded from memory, a kernel parameter without --let)
//   control   if/else, ?:, for, while, do, break, continue, return: lanes leave and rejoin the
//             active mask as on the hardware; a condition unknown for a lane makes that lane
//             uncertain, and an access with an uncertain lane is reported, not counted
//   lost      what it cannot follow (a pointer into different places in different lanes, a
//             struct it cannot lay out, a pointer read from memory) stays marked as shared
//             memory it lost: every access through it is an Unevaluated, never dropped
//   accesses  loads (an element used as a value), stores (assigned), both (+=, ++), vector
//             accesses through casts, ldmatrix/stmatrix and cp.async (asm, or the intrinsics),
//             ld.shared/st.shared in asm; each one an Access (op, width, 32 offsets, warp,
//             loop iterations), or an Unevaluated with the reason when an address is unknown
//   bounds    a loop runs at most kMaxTrips iterations each time it is entered; a WorkBudget
//             (one a file, shared by its machines) bounds the statements run and the
//             warp-instructions recorded: past it the machine stops and says so
//
// Errors that do not depend on a lane (a member that is no component, '&' of a number) are
// thrown as Failure; per-lane ones become that lane's reason. The Code window's driver
// (kernel_code.cpp) turns the first into the error message the user sees, lane and all.
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/code/integer.hpp"
#include "core/code/kernel_code.hpp"
#include "core/code/loop_invariance.hpp"
#include "core/code/syntax.hpp"
#include "core/model/access.hpp"

namespace banklab::code {

using LaneMask = std::uint32_t;
inline constexpr LaneMask kAllLanes = 0xFFFFFFFFu;

// Why a lane has no value.
struct Reason {
  Pos pos;
  std::string message;
  bool error = false;     // an error in the code, not something unknowable
  bool per_lane = false;  // the message is about one lane: "lane 3 (threadIdx ...): " goes first
};

// One expression's value in the 32 lanes of a warp.
struct Lanes {
  // local_pointer: &x of a variable (or a reference bound to it); local_place: *p of one, the
  // variable itself as a place to read or write.
  enum class Kind : std::uint8_t {
    integer,
    pointer,
    array,
    element,
    matrix,
    other,
    local_pointer,
    local_place
  };
  Kind kind = Kind::other;
  IntType type = kInt;     // integer
  int array = -1;          // pointer, array, element: the shared array
  int var = -1;            // local_pointer, local_place: the variable
  int record = -1;         // element, pointer: the struct it is (Program::records), if one
  std::int64_t bytes = 0;  // pointer: the size it points to; array: a row's size; element: width
  int scalar = 0;          // element, pointer: one component (the .x of a float4)
  int level = 0;           // array: subscripts applied; pointer: the level it points to
  // array, pointer: the rows below the array's own bounds when they are another shape
  // (Machine::views_): a struct's array member (s.a[r][c]), a pointer to an array (T (*p)[N]);
  // -1: the array's own. level counts the view's subscripts then.
  int view = -1;
  Op op = Op::ld;            // matrix
  bool constant = false;     // known when compiling: literals, constexpr, template parameters
  bool is_volatile = false;  // pointer, array, element: accessed as volatile (never merged)
  // other: something in shared memory that BankLab lost track of (a pointer whose lanes point
  // into different arrays, an array it could not lay out): kLostAddress for an address,
  // kLostPlace for an element of it, which a read or a write then accesses unevaluated.
  std::uint8_t lost = 0;
  LaneMask unknown = 0;                        // lanes with no value; why[lane] says why
  std::array<std::int64_t, kWarpSize> v{};     // integer bits, or byte offsets into the array
  std::array<std::uint16_t, kWarpSize> why{};  // Machine::reasons() index, for unknown lanes
  Int lane(int l) const { return {v[static_cast<std::size_t>(l)], type}; }
};

inline constexpr std::uint8_t kLostAddress = 1;
inline constexpr std::uint8_t kLostPlace = 2;

// A shared array as the launch lays it out.
struct ArrayShape {
  SharedArray array;                // name, type, element and component bytes, bounds
  std::vector<std::int64_t> sizes;  // sizes[L]: bytes of one sub-array after L subscripts
  std::int64_t base = 0;            // its first byte in the block's shared memory
  int record = -1;                  // its element is this struct (Program::records)
  bool is_volatile = false;
  int levels() const { return static_cast<int>(array.dims.size()); }
};

// A struct as C++ lays it out: each member's offset, and the whole's size and alignment.
struct RecordLayout {
  std::int64_t bytes = 0;
  int align = 1;
  std::vector<std::int64_t> offsets;  // by member
  std::vector<std::int64_t> counts;   // an array member's elements; 0 for one that is no array
};

// One warp-wide shared-memory instruction, as the warp executed it.
struct Access {
  int site = -1;  // the node of the access, or the asm statement (asm_site)
  bool asm_site = false;
  Op op = Op::ld;
  int width = 4;             // bytes each lane moves
  bool cp_async = false;     // a store by cp.async (LDGSTS)
  bool is_volatile = false;  // through a volatile pointer or array: nvcc keeps it as written
  int stmt = -1;             // the statement it is part of (its lines)
  int array = -1;
  LaneMask lanes = 0;
  std::array<std::int64_t, kWarpSize> offsets{};  // bytes from the array's start; -1 idle
  int warp = 0;
  std::vector<std::int32_t> iteration;  // of each loop around it, outermost first
  std::vector<std::int32_t> loops;      // those loops' statements
  // The times the warp issued it: more than 1 inside a loop whose trips are alike, run once
  // (Machine::counted_once); its iteration there is 0, the first trip, standing for all.
  std::int64_t times = 1;
};

// An access the machine met but could not count, and why.
// A loop's trips as the machine ran them: what decides whether nvcc unrolls it (scan.cpp).
struct LoopTrips {
  bool constant = true;  // every entry's count known when compiling, and no #pragma unroll 1
  int trips = 0;         // the most trips of one entry
};

// What nvcc -O3 makes of a loop, as far as BankLab can tell; measured on the H200 with nvcc
// 13.0 (tests/scan/sass/): `whole` is straight-line code of every trip, where ptxas merges
// adjacent 4-byte accesses of consecutive trips; `partial` (#pragma unroll N, fewer than its
// trips) and `unknown` (more than 32 constant trips and no pragma: LLVM unrolled a small
// 64-trip loop whole, a 32-trip SGEMM k loop by 8) leave the merges to what ptxas can prove
// (it made LDS.64 of four adjacent trips unrolled by 4, where LDS.128 was possible).
enum class Unrolling : std::uint8_t { none, whole, partial, unknown };
Unrolling unrolling_of(const Stmt& loop, const LoopTrips& trips);

struct Unevaluated {
  int site = -1;  // as Access::site; or a statement (statement) that failed as a whole
  bool asm_site = false;
  bool statement = false;
  Pos pos;
  std::string reason;
  bool error = false;
};

// The work of the machines of one file together, so that neither one kernel nor ten thousand
// small ones run for minutes or hold gigabytes: the statements run (the file's), and the
// warp-instructions recorded (a kernel's: each is kept until its kernel is summed, about 400
// bytes; the scan gives each kernel kRecords afresh).
struct WorkBudget {
  static constexpr std::int64_t kSteps = 4'000'000;  // ScanOptions::max_steps by default
  static constexpr std::int64_t kRecords = 250'000;
  std::int64_t steps = kSteps;
  std::int64_t records = kRecords;
  const std::atomic<bool>* stop = nullptr;  // set by another thread: no step more (ScanOptions)
};

struct MachineSetup {
  std::array<int, 3> block = {32, 1, 1};
  std::optional<std::array<int, 3>> grid;  // gridDim, when known
  std::vector<std::pair<std::string, std::int64_t>> lets;
  std::vector<std::pair<std::string, TypeRef>> types;  // template type arguments
  std::int64_t extern_bytes = kMaxSharedPerBlockBytes;
  std::string let_hint = "add --let NAME=VALUE";  // NAME is replaced by the name
  bool snippet = false;          // the Code window: reading a shared value is an error, not a load
  WorkBudget* budget = nullptr;  // shared with other machines; none: the machine's own
};

// Code nested past Machine::kMaxNesting (a chain of calls of deeply nested code): thrown by
// eval, integer and run, and caught by run, which stops there and reports it as not evaluated
// at `pos`. In the snippet (MachineSetup::snippet) a Failure instead.
struct TooDeep {
  Pos pos;
  std::string message;
};

// A let hint for one name: "add --let NAME=VALUE" for n is "add --let n=VALUE".
std::string hint_for(std::string hint, std::string_view name);

class Machine {
 public:
  static constexpr int kMaxTrips = 4096;  // iterations of one loop each time it is entered
  static constexpr int kMaxCallDepth = 32;
  // Statements and expressions open at once, calls included: each is a frame of up to 4 KB on
  // the stack (exec, eval and binary), so a chain of calls of deeply nested code is refused
  // before the thread's stack is spent. The parsers bound one function's nesting below it.
  static constexpr int kMaxNesting = 512;

  Machine(const Program& program, MachineSetup setup);

  // Every shared array's shape, its bounds evaluated as constants, for the Code window (throws
  // Failure for a bad bound). A kernel's arrays are shaped when their declaration runs.
  // Statically declared arrays are laid out one after another at 128-byte boundaries; the
  // dynamic buffer, which every extern array names, at kExternBase.
  void lay_out();
  static constexpr std::int64_t kExternBase = std::int64_t{1} << 20;
  const std::vector<ArrayShape>& shapes() const { return shapes_; }
  bool shaped(int array) const { return shaped_[static_cast<std::size_t>(array)] == 1; }

  // The threads of warp `warp` of the block become the lanes (lanes past the block are idle).
  void start_warp(int warp);
  // No thread: the bounds of arrays and the integer expressions of evaluate_integer.
  void start_constant();
  // Runs a function's body for the current warp (the kernel; for the snippet, its
  // declarations), its parameters and template parameters given, recording accesses and what
  // could not be evaluated.
  void run(int function, std::span<const Lanes> arguments = {},
           std::span<const Lanes> template_values = {});
  // The value of a node for the current lanes, an element left as a place (not loaded).
  Lanes eval(int node);
  // The node as an integer: its value, an error for an address.
  Lanes integer(int node);

  LaneMask lanes_in_block() const { return in_block_; }
  std::array<int, 3> thread(int lane) const;
  // "lane 5 (threadIdx 5,0,0): ", the start of a message about one lane's values.
  std::string where(int lane) const;
  // The failure a lane's reason stands for, its lane named when the message is about it.
  Failure failure(std::uint16_t reason, int lane) const;
  const std::vector<Reason>& reasons() const { return reasons_; }
  std::uint16_t reason(Pos pos, std::string message, bool error, bool per_lane = false);
  // The subscripts the last chain applied to a shared array, one entry a level.
  const std::vector<std::array<std::int64_t, kWarpSize>>& indices() const { return indices_; }
  // A value no lane knows, for this reason.
  static Lanes unknown(std::uint16_t why);

  std::vector<Access> accesses;                   // drained by the caller
  std::vector<Unevaluated> unevaluated;           // likewise
  std::unordered_map<int, int> truncated;         // loops stopped at kMaxTrips: statement -> times
  std::unordered_map<int, LoopTrips> loop_trips;  // every loop run: statement -> its trips
  std::unordered_map<int, int> calls;  // __device__ functions called: call node -> function
  bool out_of_steps = false;           // the work budget ran out: the run stopped there

  // A struct's layout (throws Failure when BankLab cannot lay it out), and any type's size and
  // alignment (throws for a type whose size it does not know).
  const RecordLayout& layout(int record);
  std::pair<std::int64_t, int> size_and_align(const TypeRef& type, Pos pos);

 private:
  struct Frame {
    std::vector<Lanes> slots;
    int function = -1;
  };
  struct Ctx {
    LaneMask active = 0;
    LaneMask uncertain = 0;  // lanes whose taking part is not known
    std::uint16_t uncertain_why = 0;
  };
  struct LoopState {
    LaneMask broke = 0;
    LaneMask continued = 0;
  };

  const Node& at(int node) const { return program_.node(node); }
  Lanes integer_value(std::int64_t v, IntType t, bool constant = false) const;
  Lanes& slot(int var);
  void store_var(int var, const Lanes& value);
  Lanes rvalue(const Lanes& v, int node);
  Lanes name(const Node& n);
  Lanes builtin(const Node& n);
  Lanes binary(const Node& n);
  Lanes arithmetic(const Operator& op, const Lanes& a, const Lanes& b, int b_node);
  Lanes unary(const Node& n);
  Lanes ternary(int node);
  Lanes postfix(int node);
  Lanes subscript(const Node& n, const Lanes& base);
  Lanes member(const Node& n, const Lanes& v);
  Lanes deref(const Node& n, Lanes ptr);
  Lanes member_part(Pos pos, std::string_view name, const Lanes& v);
  Lanes field(Pos pos, std::string_view name, const Lanes& v);
  bool has_member(int record, std::string_view name) const;
  int member_constant(const Node& n);
  Lanes reference(const Node& n, const Lanes& bound);
  Lanes bind_reference(int node);
  static Lanes lost(std::uint16_t why, std::uint8_t what = kLostAddress);
  static bool may_be_shared(const Lanes& v);
  void escape(int var);
  void forget(const Lanes& address, std::uint16_t why);
  Lanes declared_only_call(const Node& n, const Function& fn);
  std::int64_t constant_of(int node, Pos pos, const std::string& what);
  Lanes decay(Lanes v) const;
  Lanes offset(Pos pos, Lanes ptr, const Lanes& k, bool minus);
  Lanes cast(const Node& n);
  Lanes cast_to(const Node& n, const TypeRef& t, Lanes v);
  Lanes call(const Node& n);
  Lanes unknown_call(const Node& n);
  Lanes matrix_call(const Node& n);
  Lanes device_call(const Node& n, int function);
  Lanes shuffle(const Node& n);
  Lanes assign(const Node& n);
  Lanes step(const Node& n);
  void store_to(int target, const Lanes& place, const Lanes& value);
  std::optional<IntType> static_type(int node);
  std::string not_integer(const Lanes& v) const;
  // An access of the element or pointer `place` by the active lanes.
  void record(int site, bool asm_site, Op op, const Lanes& place, int width, bool cp_async = false);
  void record_struct(int site, Op op, const Lanes& place);
  void record_unknown(int site, bool asm_site, Pos pos, std::uint16_t why);
  std::optional<Lanes> shared_address(const Lanes& address, int bytes, Pos pos);

  void exec(int stmt);
  void exec_decl(const Stmt& s);
  void exec_if(const Stmt& s);
  void exec_loop(int stmt_index, const Stmt& s);
  bool counted_once(int stmt_index, const Stmt& s);
  void record_trips(int stmt_index, bool constant, int trips);
  void exec_asm(int stmt_index, const Stmt& s);
  LaneMask condition(int node, LaneMask* unknown, std::uint16_t* why, bool* constant = nullptr);
  void shape(int array);
  int index_of(const Node& n) const { return static_cast<int>(&n - program_.nodes.data()); }
  bool touches_shared(const Stmt& s) const;
  void forget_writes(const Stmt& s, std::uint16_t why);
  void count_step();
  // One level of exec or eval while it lives; past kMaxNesting, a Failure at pos.
  struct Nesting {
    Nesting(Machine& m, Pos pos);
    ~Nesting() { --depth; }
    int& depth;
  };

  const Program& program_;
  MachineSetup setup_;
  std::vector<ArrayShape> shapes_;
  // Shapes laid over part of a shared array: an array member of a struct, the rows of a pointer
  // to an array. Made once each (view_index_: by member or by the type's node or variable).
  std::vector<ArrayShape> views_;
  std::unordered_map<std::int64_t, int> view_index_;
  const ArrayShape& shape_of(const Lanes& v) const {
    return v.view >= 0 ? views_[static_cast<std::size_t>(v.view)]
                       : shapes_[static_cast<std::size_t>(v.array)];
  }
  int view(std::int64_t key, const std::string& name, const TypeRef& element,
           std::span<const int> dims, Pos pos);
  Lanes as_rows(Lanes v, const TypeRef& t, std::int64_t key, const std::string& name, Pos pos);
  std::vector<std::int8_t> shaped_;  // by array: 0 not yet, 1 shaped, 2 its bounds failed
  std::vector<std::optional<RecordLayout>> layouts_;  // by struct, once laid out
  std::vector<std::optional<Failure>> layout_failed_;
  std::vector<int> escaped_;  // variables whose address went where BankLab lost it
  // The shared values this warp's threads hold since the last store, barrier or call: what it
  // loaded or stored, where. A load of the same addresses again is one nvcc may not issue.
  struct Held {
    int array = -1;
    int width = 0;
    LaneMask lanes = 0;
    std::array<std::int64_t, kWarpSize> offsets{};
  };
  std::vector<Held> held_;
  bool held(const Access& a) const;
  int stmt_ = -1;  // the statement being run
  std::vector<std::uint16_t> shape_why_;
  std::int64_t next_base_ = 0;
  int initializing_ = -1;  // the variable whose initializer runs
  std::vector<Reason> reasons_;
  std::unordered_map<std::string, std::uint16_t> reason_index_;
  std::unordered_map<int, std::uint16_t> read_reasons_;  // by load node
  std::unordered_map<int, int> member_constants_;        // member_constant, by name node
  bool constant_ = false;                                // no thread
  int warp_ = 0;
  LaneMask in_block_ = 0;
  std::array<std::array<std::int64_t, kWarpSize>, 3> thread_{};
  Ctx ctx_;
  std::vector<Frame> frames_;
  Frame globals_;
  std::vector<LoopState*> loops_;
  std::vector<std::pair<int, int>> iteration_;  // (loop statement, iteration)
  struct Call {
    LaneMask returned = 0;
    Lanes value;
    bool has_value = false;
  };
  std::vector<Call> calls_;
  WorkBudget own_budget_;
  WorkBudget* budget_;  // setup_.budget, or own_budget_
  int depth_ = 0;       // Nesting levels open
  LoopInvariance invariance_;
  std::int64_t repeat_ = 1;  // Access::times of what is recorded now
  static constexpr std::int64_t kMaxRepeat = std::int64_t{1} << 40;
  std::vector<std::array<std::int64_t, kWarpSize>> indices_;
  std::vector<std::int8_t> typed_;  // static_type: 0 not yet, 1 integer, 2 not one
  std::vector<IntType> types_;
};

// The op a matrix call names: ldmatrix.x4, ldmatrix_x2, ldmatrix.sync.aligned.m8n8.x1.shared.b16.
Op matrix_op(const std::string& name, Pos pos);
// threadIdx.x/y/z, blockDim.x/y/z, warpSize: the names the block gives values.
bool is_builtin_name(std::string_view name);

}  // namespace banklab::code
