// The one file writer (core/addscope_OutputFile.hpp): regular files only,
// whole or not at all, never through a link, never onto a device or FIFO.
// Every case in a fresh temporary folder; no real /dev node is touched.
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "addscope/core/addscope_OutputFile.hpp"

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/addscope-outfile-XXXXXX";
    path = ::mkdtemp(t);
  }
  ~TempDir() {
    std::system(("rm -rf '" + path + "'").c_str());
  }
  std::string operator/(const std::string& name) const {
    return path + "/" + name;
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n != "." && n != "..") out.push_back(n);
      }
      ::closedir(d);
    }
    return out;
  }
};

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}
void put(const std::string& p, const std::string& text) {
  std::ofstream(p) << text;
}
bool is_link(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

}  // namespace

TEST(OutputFile, WritesANewFileWholeAndLeavesNoTemporary) {
  TempDir d;
  std::string err;
  ASSERT_TRUE(addscope::write_file_atomically(d / "w.json", "{\"a\":1}\n", &err))
      << err;
  EXPECT_EQ(slurp(d / "w.json"), "{\"a\":1}\n");
  EXPECT_EQ(d.entries(), std::vector<std::string>{"w.json"});
  // Replacing a regular file is what was asked.
  put(d / "w.json", "old");
  ASSERT_TRUE(addscope::write_file_atomically(d / "w.json", "new", &err));
  EXPECT_EQ(slurp(d / "w.json"), "new");
  EXPECT_EQ(d.entries().size(), 1u);
}

TEST(OutputFile, RefusesASymlinkAndLeavesItsTargetAlone) {
  TempDir d;
  put(d / "victim", "precious");
  ASSERT_EQ(::symlink((d / "victim").c_str(), (d / "w.json").c_str()), 0);
  std::string err;
  EXPECT_FALSE(addscope::write_file_atomically(d / "w.json", "x", &err));
  EXPECT_NE(err.find("symbolic link"), std::string::npos) << err;
  EXPECT_NE(err.find(d / "w.json"), std::string::npos) << err;
  EXPECT_EQ(slurp(d / "victim"), "precious");
  EXPECT_TRUE(is_link(d / "w.json"));
  EXPECT_EQ(d.entries().size(), 2u);  // nothing left behind
  // The stream refuses it too.
  EXPECT_LT(addscope::open_output_stream(d / "w.json", &err), 0);
  EXPECT_EQ(slurp(d / "victim"), "precious");
}

TEST(OutputFile, RefusesAFifoWithoutBlocking) {
  TempDir d;
  ASSERT_EQ(::mkfifo((d / "fifo").c_str(), 0666), 0);
  std::string err;
  EXPECT_FALSE(addscope::write_file_atomically(d / "fifo", "x", &err));
  EXPECT_NE(err.find("FIFO"), std::string::npos) << err;
  EXPECT_LT(addscope::open_output_stream(d / "fifo", &err), 0);
  struct stat st;
  ASSERT_EQ(::lstat((d / "fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));  // still a FIFO, not a file
}

TEST(OutputFile, RefusesAFolderAndASocket) {
  TempDir d;
  ASSERT_EQ(::mkdir((d / "dir").c_str(), 0777), 0);
  std::string err;
  EXPECT_FALSE(addscope::write_file_atomically(d / "dir", "x", &err));
  EXPECT_NE(err.find("folder"), std::string::npos) << err;
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  const std::string sp = d / "sock";
  ASSERT_LT(sp.size(), sizeof a.sun_path);
  std::snprintf(a.sun_path, sizeof a.sun_path, "%s", sp.c_str());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  EXPECT_FALSE(addscope::write_file_atomically(sp, "x", &err));
  EXPECT_NE(err.find("socket"), std::string::npos) << err;
  ::close(s);
}

TEST(OutputFile, APlantedTemporaryLinkIsNeverFollowed) {
  // The old writer used path + ".tmp": a link planted there made it
  // overwrite the link's target. Plant links at every name a temporary
  // could plausibly have: none is opened.
  TempDir d;
  put(d / "victim", "precious");
  ASSERT_EQ(::symlink((d / "victim").c_str(), (d / "w.json.tmp").c_str()), 0);
  for (int i = 0; i < 8; ++i)
    ASSERT_EQ(::symlink((d / "victim").c_str(),
                        (d / (".w.json.addscope-" + std::to_string(::getpid()) +
                              "-" + std::to_string(i) + ".tmp"))
                            .c_str()),
              0);
  std::string err;
  ASSERT_TRUE(addscope::write_file_atomically(d / "w.json", "new", &err)) << err;
  EXPECT_EQ(slurp(d / "victim"), "precious");
  EXPECT_EQ(slurp(d / "w.json"), "new");
  EXPECT_TRUE(is_link(d / "w.json.tmp"));
}

TEST(OutputFile, AMissingFolderFailsAndSaysWhere) {
  TempDir d;
  std::string err;
  EXPECT_FALSE(
      addscope::write_file_atomically(d / "no/such/w.json", "x", &err));
  EXPECT_NE(err.find("no/such/w.json"), std::string::npos) << err;
  EXPECT_TRUE(d.entries().empty());
}

TEST(OutputFile, StreamTruncatesARegularFileAndWrites) {
  TempDir d;
  put(d / "t.json", "0123456789 old content");
  std::string err;
  const int fd = addscope::open_output_stream(d / "t.json", &err);
  ASSERT_GE(fd, 0) << err;
  EXPECT_TRUE(addscope::write_all(fd, "[\n"));
  ::close(fd);
  EXPECT_EQ(slurp(d / "t.json"), "[\n");
}

TEST(OutputFile, PathsAreResolvedToAbsoluteOnce) {
  char cwd[4096];
  ASSERT_NE(::getcwd(cwd, sizeof cwd), nullptr);
  const std::string r = addscope::resolve_output_path("w-%p.json");
  EXPECT_EQ(r, std::string(cwd) + "/w-" + std::to_string(::getpid()) +
                   ".json");
  EXPECT_EQ(addscope::resolve_output_path("/abs/x"), "/abs/x");
  EXPECT_EQ(addscope::resolve_output_path("-"), "-");
}
