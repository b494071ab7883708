// A cubin's line table (cubin_lines.hpp): the ELF64 sections, the relocations that say which
// function each sequence is, and the DWARF line program with NVIDIA's inlining rows.
//
// [SECTION] Reading bytes
// [SECTION] The ELF sections
// [SECTION] The line program
// [SECTION] The public functions
#include "core/record/cubin_lines.hpp"

#include <algorithm>
#include <cstring>
#include <map>

namespace banklab::record {
namespace {

// [SECTION] Reading bytes
// Every read is checked against the end of its bytes: a cubin is a file from anywhere.

struct BadCubin {
  std::string what;
};

class Reader {
 public:
  Reader(std::string_view bytes, std::string_view what) : bytes_(bytes), what_(what) {}

  // A little-endian value at `at` (the cubins of sm_90 are little-endian).
  template <class T>
  T at(std::size_t at) const {
    if (at > bytes_.size() || bytes_.size() - at < sizeof(T))
      throw BadCubin{std::string(what_) + " ends inside a field"};
    T value;
    std::memcpy(&value, bytes_.data() + at, sizeof(T));
    return value;
  }
  template <class T>
  T next() {
    const T value = at<T>(pos_);
    pos_ += sizeof(T);
    return value;
  }
  std::uint64_t uleb() {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = next<std::uint8_t>();
      if (shift < 64) value |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80u) == 0) return value;
      if (shift > 70) throw BadCubin{std::string(what_) + " has a number longer than 10 bytes"};
    }
  }
  std::int64_t sleb() {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = next<std::uint8_t>();
      if (shift < 64) value |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80u) == 0) {
        if (shift + 7 < 64 && (byte & 0x40u) != 0) value |= ~std::uint64_t{0} << (shift + 7);
        return static_cast<std::int64_t>(value);
      }
      if (shift > 70) throw BadCubin{std::string(what_) + " has a number longer than 10 bytes"};
    }
  }
  std::string_view text() {
    const std::size_t end = bytes_.find('\0', pos_);
    if (pos_ > bytes_.size() || end == std::string_view::npos)
      throw BadCubin{std::string(what_) + " has a name without its end"};
    const std::string_view s = bytes_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return s;
  }
  void skip(std::uint64_t n) {
    if (n > bytes_.size() - std::min(pos_, bytes_.size()))
      throw BadCubin{std::string(what_) + " ends inside a field"};
    pos_ += static_cast<std::size_t>(n);
  }
  std::size_t pos() const { return pos_; }
  void seek(std::size_t to) { pos_ = to; }
  std::size_t size() const { return bytes_.size(); }

 private:
  std::string_view bytes_, what_;
  std::size_t pos_ = 0;
};

// [SECTION] The ELF sections

struct Section {
  std::string_view name;
  std::uint32_t type = 0, link = 0, info = 0;
  std::string_view bytes;
};

constexpr std::uint32_t kRela = 4;  // SHT_RELA

std::vector<Section> sections_of(std::string_view elf) {
  const Reader r(elf, "the cubin");
  if (elf.size() < 64 || elf.substr(0, 4) !=
                             "\x7f"
                             "ELF")
    throw BadCubin{"it is not an ELF file (a cubin)"};
  if (elf[4] != 2 || elf[5] != 1) throw BadCubin{"it is not a 64-bit little-endian ELF file"};
  const auto table = r.at<std::uint64_t>(0x28);
  const auto entry = r.at<std::uint16_t>(0x3a);
  const auto count = r.at<std::uint16_t>(0x3c);
  const auto names_index = r.at<std::uint16_t>(0x3e);
  if (entry < 64 || names_index >= count)
    throw BadCubin{"its section table is not of ELF64's form"};
  std::vector<Section> sections(count);
  std::vector<std::uint32_t> name_at(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t header = table + i * entry;
    if (header > elf.size()) throw BadCubin{"its section table lies past the file's end"};
    // Within the file from here on, so each position fits a size_t (32 bits in the browser).
    const auto h = static_cast<std::size_t>(header);
    name_at[i] = r.at<std::uint32_t>(h);
    sections[i].type = r.at<std::uint32_t>(h + 4);
    const auto offset = r.at<std::uint64_t>(h + 24);
    const auto size = r.at<std::uint64_t>(h + 32);
    sections[i].link = r.at<std::uint32_t>(h + 40);
    sections[i].info = r.at<std::uint32_t>(h + 44);
    const bool has_bytes = sections[i].type != 8;  // SHT_NOBITS (.bss, .nv.shared) has none
    if (has_bytes && (offset > elf.size() || size > elf.size() - offset))
      throw BadCubin{"section " + std::to_string(i) + " lies past the file's end"};
    if (has_bytes)
      sections[i].bytes =
          elf.substr(static_cast<std::size_t>(offset), static_cast<std::size_t>(size));
  }
  const std::string_view names = sections[names_index].bytes;
  for (std::size_t i = 0; i < count; ++i) {
    if (name_at[i] >= names.size()) throw BadCubin{"a section's name lies outside its table"};
    const std::string_view rest = names.substr(name_at[i]);
    sections[i].name = rest.substr(0, rest.find('\0'));
  }
  return sections;
}

// The function each relocated DW_LNE_set_address names: the offset of its operand in
// .debug_line -> the symbol's name (a function's, or its section's ".text.NAME").
std::map<std::uint64_t, std::string_view> line_relocations(const std::vector<Section>& sections,
                                                           std::size_t line_section) {
  std::map<std::uint64_t, std::string_view> names;
  for (const Section& rela : sections) {
    if (rela.type != kRela || rela.info != line_section) continue;
    if (rela.link >= sections.size() || sections[rela.link].link >= sections.size())
      throw BadCubin{"the line table's relocations name no symbol table"};
    const Section& symbols = sections[rela.link];
    const std::string_view strings = sections[symbols.link].bytes;
    const Reader entries(rela.bytes, "the line table's relocations");
    const Reader symbol_table(symbols.bytes, "the symbol table");
    for (std::size_t at = 0; at + 24 <= rela.bytes.size(); at += 24) {
      const auto offset = entries.at<std::uint64_t>(at);
      const std::uint64_t symbol = entries.at<std::uint64_t>(at + 8) >> 32;
      // Checked before the multiplication, which a 32-bit size_t (the browser's) would wrap.
      if (symbol >= symbols.bytes.size() / 24)
        throw BadCubin{"a relocation names a symbol past the symbol table"};
      const auto entry_at = static_cast<std::size_t>(symbol) * 24;
      const auto name_at = symbol_table.at<std::uint32_t>(entry_at);
      const auto section = symbol_table.at<std::uint16_t>(entry_at + 6);
      if (name_at >= strings.size()) throw BadCubin{"a symbol's name lies outside its table"};
      std::string_view name = strings.substr(name_at);
      name = name.substr(0, name.find('\0'));
      if (name.empty() && section < sections.size()) name = sections[section].name;
      if (name.starts_with(".text.")) name.remove_prefix(6);
      names[offset] = name;
    }
  }
  return names;
}

// [SECTION] The line program

struct Header {
  int version = 0;
  int min_instruction = 1, line_base = 0, line_range = 1, opcode_base = 1;
  std::vector<std::uint8_t> opcode_lengths;
  std::vector<std::string> files;
  std::size_t program = 0, end = 0;  // where the program starts and the unit ends
};

Header read_header(Reader& r) {
  Header h;
  const std::size_t start = r.pos();
  const auto length = r.next<std::uint32_t>();
  if (length >= 0xfffffff0u)
    throw BadCubin{"its line table is 64-bit DWARF, which nvcc never writes"};
  h.end = start + 4 + length;
  if (h.end > r.size()) throw BadCubin{"its line table runs past its section"};
  h.version = r.next<std::uint16_t>();
  if (h.version < 2 || h.version > 4)
    throw BadCubin{"its line table is of DWARF version " + std::to_string(h.version) +
                   " (nvcc writes 2)"};
  const auto header_length = r.next<std::uint32_t>();
  h.program = r.pos() + header_length;
  if (h.program > h.end) throw BadCubin{"its line table's header runs past the table"};
  h.min_instruction = r.next<std::uint8_t>();
  if (h.version >= 4) r.next<std::uint8_t>();  // maximum operations per instruction
  r.next<std::uint8_t>();                      // default is_stmt
  h.line_base = r.next<std::int8_t>();
  h.line_range = r.next<std::uint8_t>();
  h.opcode_base = r.next<std::uint8_t>();
  if (h.line_range == 0 || h.opcode_base == 0)
    throw BadCubin{"its line table's header has a line range or opcode base of 0"};
  for (int op = 1; op < h.opcode_base; ++op) h.opcode_lengths.push_back(r.next<std::uint8_t>());
  std::vector<std::string_view> directories;
  while (true) {
    const std::string_view d = r.text();
    if (d.empty()) break;
    directories.push_back(d);
  }
  while (true) {
    const std::string_view name = r.text();
    if (name.empty()) break;
    const std::uint64_t directory = r.uleb();
    r.uleb();  // modification time
    r.uleb();  // length
    std::string path(name);
    if (!name.starts_with('/') && directory >= 1 && directory <= directories.size())
      path = std::string(directories[directory - 1]) + "/" + path;
    h.files.push_back(std::move(path));
  }
  return h;
}

// The state of the line program between rows (DWARF's "registers").
struct Registers {
  std::uint64_t address = 0;
  std::uint64_t file = 1;
  std::int64_t line = 1;
  std::uint64_t inlined_at = 0;  // a row of the sequence, from 1; 0: not inlined
};

// One sequence as it is read: its function and its rows.
struct Sequence {
  std::string_view function;
  std::vector<CubinLines::Row> rows;
  std::int64_t end = 0;
};

void add_row(Sequence& s, const Registers& reg, const Header& h) {
  if (reg.file < 1 || reg.file > h.files.size())
    throw BadCubin{"a row of its line table names file " + std::to_string(reg.file) +
                   ", which the table does not list"};
  if (reg.line < 1 || reg.line > INT32_MAX || reg.address > INT64_MAX)
    throw BadCubin{"a row of its line table has line " + std::to_string(reg.line) +
                   " or address out of range"};
  if (reg.inlined_at > s.rows.size())
    throw BadCubin{"a row of its line table is inlined at row " + std::to_string(reg.inlined_at) +
                   ", which does not come before it"};
  if (s.rows.size() >= (1u << 24)) throw BadCubin{"its line table has too many rows"};
  if (!s.rows.empty() && static_cast<std::int64_t>(reg.address) < s.rows.back().offset)
    throw BadCubin{"its line table's rows go back in address"};
  s.rows.push_back({static_cast<std::int64_t>(reg.address), static_cast<int>(reg.file - 1),
                    static_cast<int>(reg.line), static_cast<int>(reg.inlined_at) - 1});
}

// An extended opcode (DW_LNS 0): end_sequence, set_address (relocated to a function), NVIDIA's
// inlining (0x90), others skipped. True at the end of a sequence.
bool extended(Reader& r, Registers& reg, Sequence& s, const Header& h,
              const std::map<std::uint64_t, std::string_view>& relocations) {
  const std::uint64_t length = r.uleb();
  if (length == 0) return false;
  const std::size_t next =
      r.pos() + static_cast<std::size_t>(std::min<std::uint64_t>(length, r.size()));
  const auto op = r.next<std::uint8_t>();
  if (op == 1) {  // DW_LNE_end_sequence
    s.end = static_cast<std::int64_t>(std::min<std::uint64_t>(reg.address, INT64_MAX));
  } else if (op == 2) {  // DW_LNE_set_address
    const std::size_t operand = r.pos();
    reg.address = r.next<std::uint64_t>();
    if (const auto it = relocations.find(operand); it != relocations.end()) s.function = it->second;
  } else if (op == 0x90) {  // NVIDIA: inlined at a row of this sequence, the inlined function
    reg.inlined_at = r.uleb();
    r.uleb();
  }
  r.seek(next);
  if (next > h.end) throw BadCubin{"an extended opcode of its line table runs past the table"};
  return op == 1;
}

// Every sequence of one unit of .debug_line.
std::vector<Sequence> read_unit(Reader& r, const Header& h,
                                const std::map<std::uint64_t, std::string_view>& relocations) {
  std::vector<Sequence> sequences(1);
  Registers reg;
  r.seek(h.program);
  const auto advance = [&](std::uint64_t units) { reg.address += units * h.min_instruction; };
  while (r.pos() < h.end) {
    const auto op = r.next<std::uint8_t>();
    if (op >= h.opcode_base) {  // a special opcode: advance both, then a row
      const int adjusted = op - h.opcode_base;
      advance(static_cast<std::uint64_t>(adjusted / h.line_range));
      reg.line += h.line_base + adjusted % h.line_range;
      add_row(sequences.back(), reg, h);
    } else if (op == 0) {
      if (extended(r, reg, sequences.back(), h, relocations)) {
        sequences.emplace_back();
        reg = Registers{};
      }
    } else if (op == 1) {
      add_row(sequences.back(), reg, h);
    } else if (op == 2) {
      advance(r.uleb());
    } else if (op == 3) {
      // Both bounded far from overflow; a row's line is held to 1..INT32_MAX (add_row).
      constexpr std::int64_t kFar = std::int64_t{1} << 40;
      const std::int64_t by = r.sleb();
      if (by < -kFar || by > kFar || reg.line + by < -kFar || reg.line + by > kFar)
        throw BadCubin{"its line table moves a line out of range"};
      reg.line += by;
    } else if (op == 4) {
      reg.file = r.uleb();
    } else if (op == 8) {  // DW_LNS_const_add_pc: special opcode 255's advance
      advance(static_cast<std::uint64_t>((255 - h.opcode_base) / h.line_range));
    } else if (op == 9) {
      reg.address += r.next<std::uint16_t>();
    } else {  // column, is_stmt, basic block, ...: their operands skipped by the header's counts
      for (int i = 0; i < h.opcode_lengths[static_cast<std::size_t>(op - 1)]; ++i) r.uleb();
    }
  }
  sequences.pop_back();  // the one begun after the last end_sequence
  return sequences;
}

CubinLines lines_of(std::string_view cubin, std::string_view function) {
  const std::vector<Section> sections = sections_of(cubin);
  const auto line_section = std::find_if(sections.begin(), sections.end(),
                                         [](const Section& s) { return s.name == ".debug_line"; });
  CubinLines found;
  if (line_section == sections.end()) return found;  // built without -lineinfo
  const auto relocations =
      line_relocations(sections, static_cast<std::size_t>(line_section - sections.begin()));
  Reader r(line_section->bytes, "its line table");
  std::vector<std::vector<std::string>> unit_files;
  std::vector<std::pair<Sequence, std::size_t>> all;  // with its unit
  while (r.pos() < r.size()) {
    Header h = read_header(r);
    for (Sequence& s : read_unit(r, h, relocations))
      all.emplace_back(std::move(s), unit_files.size());
    unit_files.push_back(std::move(h.files));
    r.seek(h.end);
  }
  // A relocatable cubin names each sequence's function; a table of one sequence and no
  // relocations (a linked cubin of one function) is that function's.
  for (auto& [sequence, unit] : all) {
    if (sequence.function == function || (all.size() == 1 && relocations.empty())) {
      found.files = std::move(unit_files[unit]);
      found.rows = std::move(sequence.rows);
      found.end = sequence.end;
      break;
    }
  }
  return found;
}

}  // namespace

// [SECTION] The public functions

Expected<CubinLines> read_cubin_lines(std::string_view cubin, std::string_view function) {
  try {
    return lines_of(cubin, function);
  } catch (const BadCubin& e) {
    return Error{"the cubin's line table cannot be read: " + e.what};
  }
}

InstructionPlaces places_at(const CubinLines& lines, std::int64_t offset) {
  InstructionPlaces p;
  if (offset < 0 || offset >= lines.end) return p;
  // The rows at the greatest address not past the offset.
  const auto after =
      std::upper_bound(lines.rows.begin(), lines.rows.end(), offset,
                       [](std::int64_t o, const CubinLines::Row& r) { return o < r.offset; });
  if (after == lines.rows.begin()) return p;
  const std::int64_t address = std::prev(after)->offset;
  auto first = std::prev(after);
  while (first != lines.rows.begin() && std::prev(first)->offset == address) --first;
  const auto place = [&](const CubinLines::Row& r) {
    return TraceLocation{lines.files[static_cast<std::size_t>(r.file)], r.line};
  };
  for (auto row = first; row != after; ++row) {
    TraceLocation l = place(*row);
    const bool listed = std::any_of(p.counted_at.begin(), p.counted_at.end(), [&](const auto& c) {
      return c.file == l.file && c.line == l.line;
    });
    if (!listed) p.counted_at.push_back(std::move(l));
  }
  // The innermost row is the last at the address; each step out goes to an earlier row.
  for (int row = static_cast<int>(std::prev(after) - lines.rows.begin()); row >= 0;
       row = lines.rows[static_cast<std::size_t>(row)].inlined_at) {
    p.where.push_back(place(lines.rows[static_cast<std::size_t>(row)]));
  }
  return p;
}

}  // namespace banklab::record
