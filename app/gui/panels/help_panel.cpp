// F1: the keyboard shortcuts (from the same table the handler uses) and how to read the views.
#include "app/gui/panels/panels.hpp"
#include "app/gui/views/widgets.hpp"

namespace banklab::gui {

void draw_help(AppState& s) {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34.0f, 0.0f), ImGuiCond_Appearing);
  if (!ImGui::Begin("Help", &s.user.views.help, ImGuiWindowFlags_NoCollapse)) {
    ImGui::End();
    return;
  }
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    for (const Shortcut& k : shortcuts()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.key_name);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.what);
    }
    ImGui::EndTable();
  }
  ImGui::Separator();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(
      "Bank view: one row per wavefront (one clock of shared memory, 32 banks x 4 bytes), one "
      "column per bank. A cell shows the lanes a bank serves and the word it reads. Red: the "
      "bank holds several distinct words for the phase and serves them one per row (the "
      "conflict). Striped: lanes share one word (a broadcast for loads; no conflict). The yellow "
      "line under each phase's first row is the ideal; tinted rows below it are the excess that "
      "Nsight Compute counts as bank conflicts.");
  ImGui::Spacing();
  ImGui::TextUnformatted(
      "Lane map: a line from each lane to each bank it touches, coloured as the bank view "
      "colours that word: green served, red a conflict (the bank holds several words), blue a "
      "word lanes share (they meet at the word, one line runs on). Under each lane, the "
      "wavefront that serves it. Tile: each element coloured by its bank (the key under it); "
      "the outlined elements are this access, numbered by lane.");
  ImGui::Spacing();
  ImGui::TextUnformatted(
      "In a lesson, the lanes and banks the step's text names are marked beside their numbers "
      "(a bar over a lane, a tab behind a bank's number) and keep their colour, while the rest "
      "fades. Tile rows marked with hatched bars start off the alignment a wide access needs.");
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace banklab::gui
