#include "common/addscope_apps_Plot.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdio>

#include "addscope/core/addscope_Error.hpp"
#include "common/addscope_apps_Files.hpp"

namespace addscope {
namespace apps {

namespace {
/// A gnuplot single-quoted string.
std::string gp_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

/// A shell single-quoted word.
std::string sh_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

PlotScript::PlotScript(std::string dir, const std::string& what)
    : dir_(std::move(dir)) {
  script_ = "# " + what +
            " plots; rerun with: gnuplot plots.gp (in this folder)\n"
            "set terminal pngcairo size 1100,650 enhanced font 'sans,10'\n"
            "set grid\nset key outside right top\nset logscale x 2\n"
            "set format x '2^{%L}'\nset yrange [0:*]\n";
}

void PlotScript::add(const std::string& name, const std::string& title,
                     const std::string& xlabel, const std::string& ylabel,
                     const std::vector<Series>& s, bool x_powers) {
  std::string data;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) data += "\n\n";
    data += "# " + s[i].title + "\n";
    for (const auto& p : s[i].xy)
      data += fmt::format("{:.9g} {:.9g}\n", p.first, p.second);
  }
  write_file_atomic(dir_ + "/" + name + ".dat", data);
  script_ += "\nset output " + gp_quote(name + ".png") + "\n";
  script_ += "set title " + gp_quote(title) + " noenhanced\n";
  script_ += "set xlabel " + gp_quote(xlabel) + "\nset ylabel " +
             gp_quote(ylabel) + "\n";
  if (!x_powers) script_ += "set format x '%g'\n";
  std::string cmd = "plot ";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) cmd += ", \\\n     ";
    cmd += fmt::format(
        "{} index {} using 1:2 with linespoints {}title {} noenhanced",
        gp_quote(name + ".dat"), i, s[i].dashed ? "dashtype 2 lw 2 " : "",
        gp_quote(s[i].title));
  }
  script_ += cmd + "\n";
  if (!x_powers) script_ += "set format x '2^{%L}'\n";
  pngs_.push_back(dir_ + "/" + name + ".png");
}

std::vector<std::string> PlotScript::render(const std::string& gnuplot) {
  write_file_atomic(dir_ + "/plots.gp", script_ + "unset output\n");
  const std::string cmd =
      "cd " + sh_quote(dir_) + " && " + sh_quote(gnuplot) + " plots.gp 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) ADDSCOPE_RUNTIME_ERROR("cannot run gnuplot (" << cmd << ")");
  std::string log;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) log += buf;
  const int status = ::pclose(p);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    ADDSCOPE_RUNTIME_ERROR("gnuplot failed on " << dir_
                                                << "/plots.gp: " << log);
  return pngs_;
}

}  // namespace apps
}  // namespace addscope
