#include "app/cli/analyze_batch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <span>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "app/cli/commands.hpp"
#include "core/model/access.hpp"
#include "core/model/analysis.hpp"
#include "core/report/json.hpp"

// Speed matters here (100,000 patterns within a second as a whole process), and so does
// memory: the input may be endless (`yes 'ld 4 0' | banklab analyze --batch -`). The input is
// read as it arrives into a bounded buffer and cut into rounds of lines; each round is analysed
// as one block of lines per hardware thread, every block into its own reused output string, and
// the main thread writes the blocks in input order and flushes. A round ends when it is full or
// when the input pauses, so that a slow writer sees each answer as soon as its line is in.
// A good line allocates nothing beyond what analyze() itself needs.

namespace banklab::cli {
namespace {

// 256 lines make about 1 MB of JSON: writes stay large, and each block's buffer stays in cache;
// paired against 2048-line blocks, they took less CPU and half the peak memory
// (docs/benchmarks.md).
constexpr std::size_t kBlockLines = 256;
constexpr std::size_t kRoundBytes = std::size_t{8} << 20;  // input held at once, at most
constexpr std::size_t kMaxLineBytes = 64 * 1024;           // a pattern line is under 1 KB
constexpr std::size_t kReadBytes = 64 * 1024;
constexpr std::string_view kBom = "\xEF\xBB\xBF";

struct Line {
  std::size_t begin = 0;  // in the reader's buffer
  std::size_t size = 0;
  bool too_long = false;  // its bytes were dropped; it is reported as bad
};

// The input, a round of whole lines at a time, as it arrives. Memory stays bounded: a round
// holds at most kRoundBytes, and a line longer than kMaxLineBytes is dropped as it is read.
class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}

  // The next round: up to max_lines lines, fewer when the input pauses or ends. false on a read
  // error (errno says which).
  bool next(std::vector<Line>& lines, std::size_t max_lines) {
    buffer_.erase(0, pos_);
    pos_ = 0;
    lines.clear();
    while (lines.size() < max_lines && pos_ < kRoundBytes) {
      if (take_line(lines)) continue;
      if (eof_) break;
      // Nothing whole is left: answer what has come rather than wait for a slow writer.
      if (!lines.empty() && !input_ready()) break;
      if (!read_more()) return false;
    }
    return true;
  }
  bool finished() const { return eof_ && pos_ == buffer_.size(); }
  std::string_view text(const Line& l) const {
    return std::string_view(buffer_).substr(l.begin, l.size);
  }

 private:
  // Takes one whole line (or the last, unterminated one) from the buffer; false when more
  // input is needed first.
  bool take_line(std::vector<Line>& lines) {
    const std::size_t newline = buffer_.find('\n', pos_);
    if (skipping_) {  // the rest of a line too long to keep
      if (newline == std::string::npos) {
        buffer_.resize(pos_);
        return false;
      }
      pos_ = newline + 1;
      skipping_ = false;
      return true;
    }
    if (newline != std::string::npos) {
      lines.push_back({pos_, newline - pos_});
      pos_ = newline + 1;
      return true;
    }
    if (buffer_.size() - pos_ > kMaxLineBytes) {
      lines.push_back({pos_, 0, true});
      buffer_.resize(pos_);
      skipping_ = true;
      return true;
    }
    if (eof_ && pos_ < buffer_.size()) {
      lines.push_back({pos_, buffer_.size() - pos_});
      pos_ = buffer_.size();
      return true;
    }
    return false;
  }

  bool input_ready() const {
    pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
    return ::poll(&p, 1, 0) != 0;  // an error, too, is left to read() to report
  }

  bool read_more() {
    const std::size_t old = buffer_.size();
    buffer_.resize(old + kReadBytes);
    ssize_t n = 0;
    do {
      n = ::read(fd_, buffer_.data() + old, kReadBytes);
    } while (n < 0 && errno == EINTR);
    buffer_.resize(old + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n == 0) eof_ = true;
    return n >= 0;
  }

  int fd_;
  std::string buffer_;
  std::size_t pos_ = 0;  // the start of what the current round has not taken
  bool eof_ = false;
  bool skipping_ = false;
};

bool is_blank_or_comment(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first == std::string_view::npos || line[first] == '#';
}

// What one block of lines produced.
struct Block {
  std::string json;  // one object a line
  std::size_t patterns = 0;
  std::size_t bad = 0;
  std::string first_bad;       // the first bad line's first error, with its line number
  std::exception_ptr failure;  // out of memory and the like, rethrown on the main thread
};

// The diagnostics of one line, or none when it parsed; `access` receives it.
std::vector<Diagnostic> read_line(std::string_view text, const Line& line, WarpAccess& access) {
  if (line.too_long) {
    return {{.severity = Severity::error,
             .rule = "syntax",
             .message = "the line is longer than " + std::to_string(kMaxLineBytes) +
                        " bytes; a pattern line is \"OP WIDTH o0,...,o31\""}};
  }
  const Expected<WarpAccess> parsed = parse_pattern_line(text);
  if (!parsed) return {{.severity = Severity::error, .rule = "syntax", .message = parsed.error()}};
  access = *parsed;
  return check_access(access);
}

// Lines [number, number + lines.size()) of the input, numbered from 1.
void render(const LineReader& reader, std::span<const Line> lines, std::size_t number,
            BatchForm form, Block& block) {
  block.json.clear();
  block.patterns = block.bad = 0;
  block.first_bad.clear();
  try {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::string_view text = reader.text(lines[i]);
      if (number + i == 1 && text.starts_with(kBom)) text.remove_prefix(kBom.size());
      if (text.ends_with('\r')) text.remove_suffix(1);  // a CRLF file
      if (!lines[i].too_long && is_blank_or_comment(text)) continue;
      ++block.patterns;
      WarpAccess access;
      std::vector<Diagnostic> diagnostics = read_line(text, lines[i], access);
      if (!has_error(diagnostics)) {
        if (form == BatchForm::counts) {
          append_json_counts(block.json, analyze(access), diagnostics);
        } else {
          append_json(block.json, analyze(access), diagnostics);
        }
      } else {
        const std::string where = "line " + std::to_string(number + i) + ": ";
        for (Diagnostic& d : diagnostics) d.message.insert(0, where);
        if (block.bad++ == 0) block.first_bad = first_error(diagnostics);
        append_json_error(block.json, diagnostics);
      }
      block.json += '\n';
    }
  } catch (...) {
    block.failure = std::current_exception();
  }
}

// Opens the --batch file; a name that cannot be opened, or names a folder, is the user's to
// fix: bad input (the message), not an environment failure.
Expected<int> open_batch(std::string_view source) {
  if (source == "-") return STDIN_FILENO;
  const int fd = ::open(std::string(source).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Error{"cannot open --batch file " + quote(source) + ": " + std::strerror(errno)};
  }
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    return Error{"--batch " + quote(source) + " is a folder, not a file"};
  }
  return fd;
}

}  // namespace

int run_analyze_batch(std::string_view source, BatchForm form) {
  const Expected<int> fd = open_batch(source);
  if (!fd) return bad_input(fd.error());
  LineReader reader(*fd);
  const std::string name = source == "-" ? "standard input" : "--batch file " + quote(source);

  // One block per hardware thread and round: block 0 on this thread, the others on workers.
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
  std::vector<Block> blocks(threads);
  std::vector<Line> lines;
  std::size_t number = 1;  // of the round's first line
  std::size_t patterns = 0;
  std::size_t bad = 0;
  std::string first_bad;
  int status = kExitOk;
  while (!reader.finished()) {
    if (!reader.next(lines, threads * kBlockLines)) {
      status = failure("cannot read " + name + ": " + std::strerror(errno));
      break;
    }
    const auto block_lines = [&](std::size_t b) {
      const std::size_t begin = std::min(lines.size(), b * kBlockLines);
      return std::span(lines).subspan(begin, std::min(lines.size() - begin, kBlockLines));
    };
    {
      std::vector<std::jthread> workers;
      std::size_t b = 1;
      for (; b < threads && !block_lines(b).empty(); ++b) {
        try {
          workers.emplace_back(render, std::cref(reader), block_lines(b), number + b * kBlockLines,
                               form, std::ref(blocks[b]));
        } catch (const std::system_error&) {
          break;  // no thread to be had (its stack under `ulimit -v`, the thread limit)
        }
      }
      // Blocks no worker took are rendered here: fewer threads, the same answers.
      for (; b < threads && !block_lines(b).empty(); ++b) {
        render(reader, block_lines(b), number + b * kBlockLines, form, blocks[b]);
      }
      render(reader, block_lines(0), number, form, blocks[0]);
    }  // the workers join here
    for (std::size_t b = 0; b < threads && !block_lines(b).empty(); ++b) {
      const Block& block = blocks[b];
      if (block.failure) std::rethrow_exception(block.failure);
      print(block.json);
      patterns += block.patterns;
      if (bad == 0 && block.bad > 0) first_bad = block.first_bad;
      bad += block.bad;
    }
    number += lines.size();
    // Each round's answers go out now. A full disk: stop rather than analyse the rest for
    // nobody. (A closed pipe ends the process with SIGPIPE, as it does for any command-line
    // tool.)
    if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
      status = failure("cannot write the output");
      break;
    }
  }
  if (*fd != STDIN_FILENO) ::close(*fd);
  if (status != kExitOk) return status;
  if (bad > 0) {
    return bad_input(std::to_string(bad) + " of " + std::to_string(patterns) +
                     " batch patterns were bad; the first, " + first_bad);
  }
  return kExitOk;
}

}  // namespace banklab::cli
