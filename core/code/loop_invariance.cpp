// Loops whose trips issue the same accesses (loop_invariance.hpp): read from the syntax tree.
#include "core/code/loop_invariance.hpp"

#include <algorithm>

namespace banklab::code {
namespace {

// What a piece of code does that decides whether its loop qualifies: the variables it declares
// and writes (with the value written, or -1), the expressions that decide control or an
// address, and whether it leaves the loop or does something BankLab does not follow.
class Reader {
 public:
  explicit Reader(const Program& p) : p_(p) {}

  struct Write {
    int var;
    int value;  // the node written, -1 for ++, --, & or a call's argument
  };
  std::vector<int> declared;
  std::vector<Write> writes;
  std::vector<int> deciding;  // conditions, shared addresses, __device__ arguments, asm operands
  bool calls_device = false;
  bool disqualified = false;

  void statement(int index);
  void expression(int node);

 private:
  const Node& at(int node) const { return p_.node(node); }
  // The variable an expression names at its root (x in x, x.y, x[i], (T)x), or -1.
  int root_var(int node) const;
  // Not a shared address: rooted at a kernel's pointer parameter (global memory) or at a local
  // array (registers, which the machine does not follow).
  bool not_shared(int node) const;
  bool is_device_function(const std::string& name) const;

  const Program& p_;
  int inner_loops_ = 0;  // loops inside the one read, around the statement being read
};

int Reader::root_var(int node) const {
  while (node >= 0) {
    const Node& n = at(node);
    if (n.kind == NodeKind::name) return n.var;
    if (n.kind != NodeKind::subscript && n.kind != NodeKind::member && n.kind != NodeKind::cast)
      return -1;
    node = n.a;
  }
  return -1;
}

bool Reader::not_shared(int node) const {
  const int var = root_var(node);
  if (var < 0) return false;
  const Variable& v = p_.vars[static_cast<std::size_t>(var)];
  if (!v.dims.empty() && !v.type.pointer) return true;
  return v.parameter && v.type.pointer && v.function >= 0 &&
         p_.functions[static_cast<std::size_t>(v.function)].kernel;
}

bool Reader::is_device_function(const std::string& name) const {
  return std::any_of(p_.functions.begin(), p_.functions.end(),
                     [&](const Function& f) { return f.name == name && !f.kernel && !f.host; });
}

void Reader::expression(int node) {
  if (node < 0) return;
  const Node& n = at(node);
  switch (n.kind) {
    case NodeKind::assign:
    case NodeKind::step:
    case NodeKind::address:
      if (const int var = root_var(n.a); var >= 0) {
        const bool whole = at(n.a).kind == NodeKind::name;
        writes.push_back({var, n.kind == NodeKind::assign && whole ? n.b : -1});
      }
      break;
    case NodeKind::subscript:
    case NodeKind::deref:
      if (!not_shared(n.a)) {
        deciding.push_back(n.a);
        if (n.b >= 0) deciding.push_back(n.b);
      }
      break;
    case NodeKind::ternary:
      deciding.push_back(n.a);
      break;
    case NodeKind::binary:
      for (const Operator& op : n.ops) {
        if (op.text == "&&" || op.text == "||")
          deciding.insert(deciding.end(), n.args.begin(), n.args.end());
      }
      break;
    case NodeKind::call:
      if (is_device_function(n.text)) {
        calls_device = true;
        for (int arg : n.args) {
          deciding.push_back(arg);
          if (const int var = root_var(arg); var >= 0) writes.push_back({var, -1});
        }
      }
      break;
    default:
      break;
  }
  expression(n.a);
  expression(n.b);
  expression(n.c);
  for (int arg : n.args) expression(arg);
}

void Reader::statement(int index) {
  if (index < 0) return;
  const Stmt& s = p_.stmt(index);
  switch (s.kind) {
    case StmtKind::block:
      for (int child : s.body) statement(child);
      return;
    case StmtKind::decl:
      for (std::size_t i = 0; i < s.vars.size(); ++i) {
        declared.push_back(s.vars[i]);
        writes.push_back({s.vars[i], s.inits[i]});
        expression(s.inits[i]);
      }
      return;
    case StmtKind::array:
      return;
    case StmtKind::expr:
      return expression(s.a);
    case StmtKind::if_:
      deciding.push_back(s.a);
      expression(s.a);
      for (int child : s.body) statement(child);
      return;
    case StmtKind::for_:
    case StmtKind::while_:
    case StmtKind::do_: {
      const bool is_for = s.kind == StmtKind::for_;
      if (is_for) statement(s.body[0]);
      if (s.a >= 0) deciding.push_back(s.a);
      expression(s.a);
      expression(s.c);
      ++inner_loops_;
      statement(is_for ? s.body[1] : s.body[0]);
      --inner_loops_;
      return;
    }
    case StmtKind::break_:
    case StmtKind::continue_:
      if (inner_loops_ == 0) disqualified = true;
      return;
    case StmtKind::asm_:
      if (s.outputs > 0) disqualified = true;
      deciding.insert(deciding.end(), s.args.begin(), s.args.end());
      return;
    case StmtKind::return_:
    case StmtKind::unread:
      disqualified = true;
      return;
  }
}

// Whether the expression reads one of `vars`.
bool reads(const Program& p, int node, const std::vector<int>& vars) {
  if (node < 0) return false;
  const Node& n = p.node(node);
  if (n.kind == NodeKind::name && std::find(vars.begin(), vars.end(), n.var) != vars.end())
    return n.var >= 0;
  if (reads(p, n.a, vars) || reads(p, n.b, vars) || reads(p, n.c, vars)) return true;
  return std::any_of(n.args.begin(), n.args.end(), [&](int arg) { return reads(p, arg, vars); });
}

bool contains(const std::vector<int>& list, int x) {
  return std::find(list.begin(), list.end(), x) != list.end();
}

// The walk of a loop's code for loop_effects().
class EffectsReader {
 public:
  explicit EffectsReader(const Program& p) : p_(p) {}
  LoopEffects effects;

  void statement(int index) {
    if (index < 0) return;
    const Stmt& s = p_.stmt(index);
    switch (s.kind) {
      case StmtKind::asm_:
      case StmtKind::unread:
        effects.synchronizes = true;
        return;
      case StmtKind::decl:
        for (int init : s.inits) expression(init);
        return;
      case StmtKind::array:
      case StmtKind::break_:
      case StmtKind::continue_:
        return;
      default:
        expression(s.a);
        expression(s.c);
        for (int child : s.body) statement(child);
    }
  }

  void expression(int node) {
    if (node < 0) return;
    const Node& n = p_.node(node);
    if (n.kind == NodeKind::assign || n.kind == NodeKind::step) store(n.a);
    if (n.kind == NodeKind::call && synchronizing(n.text)) effects.synchronizes = true;
    expression(n.a);
    expression(n.b);
    expression(n.c);
    for (int arg : n.args) expression(arg);
  }

 private:
  // A store to the place `target` names.
  void store(int target) {
    bool through_memory = false;  // a subscript or * on the way to the root
    int node = target;
    while (node >= 0) {
      const Node& n = p_.node(node);
      if (n.kind == NodeKind::name) break;
      if (n.kind == NodeKind::subscript || n.kind == NodeKind::deref) {
        through_memory = true;
      } else if (n.kind != NodeKind::member && n.kind != NodeKind::cast) {
        node = -1;  // (c ? a : b)[i], f()[i]: an address BankLab cannot read
        break;
      }
      node = n.a;
    }
    if (node < 0) {
      effects.stores = effects.stores_anywhere = true;
      return;
    }
    const Node& root = p_.node(node);
    if (root.array >= 0) {
      effects.stores = true;
      effects.stored_arrays.push_back(p_.arrays[static_cast<std::size_t>(root.array)].name);
      return;
    }
    if (root.var < 0) {  // a name the file does not declare
      effects.stores = effects.stores_anywhere = true;
      return;
    }
    const Variable& v = p_.vars[static_cast<std::size_t>(root.var)];
    if (v.type.reference || (through_memory && v.type.pointer)) {
      effects.stores = true;
      // A kernel's pointer parameter points to global memory, never to shared.
      const bool global = v.parameter && v.type.pointer && v.function >= 0 &&
                          p_.functions[static_cast<std::size_t>(v.function)].kernel;
      if (!global) effects.stores_anywhere = true;
    }
    // Else a local variable or a local array: registers, no store to memory.
  }

  bool synchronizing(const std::string& name) const {
    if (std::any_of(p_.functions.begin(), p_.functions.end(),
                    [&](const Function& f) { return f.name == name; }))
      return true;
    for (const char* part :
         {"sync", "fence", "atomic", "barrier", "async", "arrive", "wait", "memcpy", "memset"})
      if (name.find(part) != std::string::npos) return true;
    return false;
  }

  const Program& p_;
};

}  // namespace

LoopEffects loop_effects(const Program& program, int loop) {
  EffectsReader reader(program);
  reader.statement(loop);
  return reader.effects;
}

bool LoopInvariance::invariant(int loop) {
  return analysis(loop).invariant;
}

const LoopInvariance::Analysis& LoopInvariance::analysis(int loop) {
  if (const auto it = done_.find(loop); it != done_.end()) return it->second;
  return done_.emplace(loop, analyze(loop)).first->second;
}

LoopInvariance::Analysis LoopInvariance::analyze(int loop) {
  const Stmt& s = p_.stmt(loop);
  Analysis a;
  Reader head(p_), body(p_);
  head.expression(s.a);
  head.expression(s.c);
  body.statement(s.kind == StmtKind::for_ ? s.body[1] : s.body[0]);
  // A head that reads shared memory or calls a function would record while its trips are
  // counted.
  if (head.disqualified || body.disqualified || !head.deciding.empty() || head.calls_device)
    return a;
  for (const Reader::Write& w : head.writes)
    if (!contains(a.counters, w.var)) a.counters.push_back(w.var);
  a.changed = a.counters;
  for (const Reader::Write& w : body.writes) {
    if (!contains(body.declared, w.var) && !contains(a.changed, w.var)) a.changed.push_back(w.var);
  }
  for (int var : a.changed) {
    // A file-scope variable, or a counter the body moves: the trips are not the head's alone.
    const Variable& v = p_.vars[static_cast<std::size_t>(var)];
    if (v.function < 0) return a;
    if (contains(a.counters, var)) continue;
    if (reads(p_, s.a, {var}) || reads(p_, s.c, {var})) return a;
    // An integer or a pointer the body carries from trip to trip (an offset advanced each
    // trip) may be used for an address after the loop: its value must be followed.
    if (v.type.integer || v.type.pointer || v.type.is_auto()) return a;
  }
  if (body.calls_device && writes_globals()) return a;
  // The variables that differ from trip to trip: those the loop changes, then those of the
  // body computed from them.
  std::vector<int> varying = a.changed;
  for (bool grew = true; grew;) {
    grew = false;
    for (const Reader::Write& w : body.writes) {
      if (contains(varying, w.var) || w.value < 0 || !reads(p_, w.value, varying)) continue;
      varying.push_back(w.var);
      grew = true;
    }
  }
  for (int node : body.deciding)
    if (reads(p_, node, varying)) return a;
  a.invariant = true;
  return a;
}

bool LoopInvariance::writes_globals() {
  if (!writes_globals_) {
    writes_globals_ = std::any_of(p_.nodes.begin(), p_.nodes.end(), [&](const Node& n) {
      if (n.kind != NodeKind::assign && n.kind != NodeKind::step) return false;
      int node = n.a;
      while (node >= 0 && p_.node(node).kind != NodeKind::name) node = p_.node(node).a;
      return node >= 0 && p_.node(node).var >= 0 &&
             p_.vars[static_cast<std::size_t>(p_.node(node).var)].function < 0;
    });
  }
  return *writes_globals_;
}

}  // namespace banklab::code
