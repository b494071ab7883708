#include "core/report/study.hpp"

namespace banklab {

BankLoad bank_load(const Analysis& a) {
  BankLoad load(a.phases.size(), std::array<int, kBankCount>{});
  for (const Wavefront& wf : a.wavefronts) {
    for (int b = 0; b < kBankCount; ++b) {
      if (wf.banks[b].used()) ++load[wf.phase][b];
    }
  }
  return load;
}

Study study(const Scenario& s, const Study* previous) {
  Study st;
  st.scenario = s;
  st.evaluation = evaluate(s);
  st.explanation = explain(s, st.evaluation);
  if (st.evaluation.ok()) st.bank_load = bank_load(*st.evaluation.analysis);
  // A default-constructed Study (nothing studied yet) has a valid tile without a map: not one
  // to reuse.
  const bool reusable = previous && previous->scenario.tile == s.tile &&
                        (!previous->tile_valid || !previous->bank_map.empty());
  if (reusable) {
    st.tile_valid = previous->tile_valid;
    st.bank_map = previous->bank_map;
    st.spellings = previous->spellings;
  } else {
    st.tile_valid = s.tile.check();
    if (st.tile_valid) {
      st.bank_map = tile_bank_map(s.tile);
      st.spellings = spellings(s.tile);
    }
  }
  return st;
}

}  // namespace banklab
