#include "addscope/core/addscope_OutputPath.hpp"

#include <unistd.h>

#include <cstdlib>

namespace addscope {

int rank_from_environment() {
  for (const char* v :
       {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}) {
    const char* s = std::getenv(v);
    if (!s || !*s) continue;
    char* end = nullptr;
    const long r = std::strtol(s, &end, 10);
    if (end && *end == '\0' && r >= 0) return int(r);
  }
  return -1;
}

std::string expand_output_path(const std::string& pattern) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      out += pattern[i];
      continue;
    }
    const char c = pattern[++i];
    if (c == 'p')
      out += std::to_string(getpid());
    else if (c == 'r')
      out += std::to_string(
          rank_from_environment() < 0 ? 0 : rank_from_environment());
    else if (c == '%')
      out += '%';
    else {
      out += '%';
      out += c;
    }
  }
  return out;
}

}  // namespace addscope
