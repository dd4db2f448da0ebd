// A program for the launcher's tests that never initializes Kokkos or CUDA
// (plain C++, nothing of addscope linked): under addscope-waits the tool
// never starts in it.
//   addscope-test-launcher-child env VAR...   prints VAR=value or VAR unset
//                                              per variable, its arguments,
//                                              and what the
//                                              ADDSCOPE_WAITS_STARTED file is
//   addscope-test-launcher-child exit N        exits with N
//   addscope-test-launcher-child signal N      kills itself with signal N
//   addscope-test-launcher-child wait          prints "ready", then waits
//                                              for SIGINT (exits 41),
//                                              SIGTERM (42) or SIGHUP (43);
//                                              99 after 30 s
//   addscope-test-launcher-child sleep         prints "ready", sleeps 30 s
//                                              with default dispositions
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void on_signal(int sig) {
  const int code = sig == SIGINT ? 41 : sig == SIGTERM ? 42 : 43;
  const char msg[] = "launcher-child: got the signal\n";
  (void)::write(1, msg, sizeof msg - 1);
  ::_exit(code);
}

void ready() {
  std::printf("ready %ld\n", long(::getpid()));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s env|exit|signal|wait|sleep ...\n", argv[0]);
    return 2;
  }
  const std::string mode = argv[1];
  if (mode == "env") {
    for (int i = 2; i < argc; ++i) {
      const char* v = std::getenv(argv[i]);
      if (v)
        std::printf("%s=%s\n", argv[i], v);
      else
        std::printf("%s unset\n", argv[i]);
    }
    for (int i = 0; i < argc; ++i) std::printf("ARGV %d [%s]\n", i, argv[i]);
    if (const char* s = std::getenv("ADDSCOPE_WAITS_STARTED")) {
      struct stat st;
      if (::lstat(s, &st) != 0)
        std::printf("STARTED_FILE missing\n");
      else
        std::printf("STARTED_FILE %s %s mode %o\n",
                    S_ISREG(st.st_mode) ? "regular" : "not-regular",
                    st.st_size == 0 ? "empty" : "not-empty",
                    unsigned(st.st_mode & 0777));
    }
    return 0;
  }
  if (mode == "exit" && argc > 2) return std::atoi(argv[2]);
  if (mode == "signal" && argc > 2) {
    const int sig = std::atoi(argv[2]);
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    return 98;  // not reached for a fatal signal
  }
  if (mode == "wait") {
    for (int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, on_signal);
    ready();
    for (int i = 0; i < 300; ++i) ::usleep(100000);
    return 99;
  }
  if (mode == "sleep") {
    for (int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, SIG_DFL);
    ready();
    ::sleep(30);
    return 99;
  }
  std::fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], mode.c_str());
  return 2;
}
