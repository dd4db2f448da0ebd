#include "waits_child.hpp"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

extern char** environ;

namespace addscope {
namespace apps {

namespace {

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};
volatile sig_atomic_t g_child = 0;

void forward(int sig, siginfo_t* info, void*) {
  const pid_t child = pid_t(g_child);
  if (child <= 0) return;
  // si_code > 0: the kernel sent it (a terminal's ^C goes to the whole
  // foreground process group: the program has it already).
  if (info && info->si_code > 0) return;
  const int saved = errno;
  ::kill(child, sig);
  errno = saved;
}

}  // namespace

int ChildEnd::status() const {
  if (!started) return exec_errno == ENOENT ? 127 : 126;
  if (exited) return code;
  return 128 + signal;
}

std::vector<std::string> child_environment(
    const std::vector<std::pair<std::string, std::string>>& set,
    const std::vector<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const std::string name = kv.substr(0, kv.find('='));
    bool replaced = false;
    for (const auto& s : set) replaced = replaced || s.first == name;
    for (const auto& u : unset) replaced = replaced || u == name;
    if (!replaced) env.push_back(kv);
  }
  for (const auto& s : set) env.push_back(s.first + "=" + s.second);
  return env;
}

std::string signal_name(int sig) {
  // (sigabbrev_np needs glibc 2.32; GPU machines may run older ones.)
  static const struct {
    int sig;
    const char* name;
  } names[] = {{SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"},
               {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"},
               {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"},
               {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
               {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
               {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"}};
  for (const auto& n : names)
    if (n.sig == sig) return n.name;
  return "signal " + std::to_string(sig);
}

ChildEnd run_child(const std::vector<std::string>& argv,
                   const std::vector<std::string>& env) {
  ChildEnd end;
  if (argv.empty()) {
    end.exec_errno = ENOENT;
    return end;
  }
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);

  // Blocked from before the fork until the child's pid is known: a signal
  // in between is forwarded, not lost.
  sigset_t forwarded, old_mask;
  sigemptyset(&forwarded);
  for (int s : kForwarded) sigaddset(&forwarded, s);
  ::sigprocmask(SIG_BLOCK, &forwarded, &old_mask);
  struct sigaction old_action[3];
  bool handled[3] = {false, false, false};
  for (int i = 0; i < 3; ++i) {
    ::sigaction(kForwarded[i], nullptr, &old_action[i]);
    if (old_action[i].sa_handler == SIG_IGN) continue;  // stays ignored
    struct sigaction sa;
    ::memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    ::sigaction(kForwarded[i], &sa, nullptr);
    handled[i] = true;
  }
  auto restore = [&] {
    for (int i = 0; i < 3; ++i)
      if (handled[i]) ::sigaction(kForwarded[i], &old_action[i], nullptr);
  };

  // exec's failure comes back through a pipe closed on success.
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0) {
    end.exec_errno = errno;
    restore();
    ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    return end;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    end.exec_errno = errno;
    ::close(pipefd[0]);
    ::close(pipefd[1]);
    restore();
    ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    return end;
  }
  if (pid == 0) {
    restore();
    ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    ::close(pipefd[0]);
    ::execvpe(args[0], args.data(), envp.data());
    const int e = errno;
    ssize_t w;
    do {
      w = ::write(pipefd[1], &e, sizeof e);
    } while (w < 0 && errno == EINTR);
    ::_exit(127);
  }
  g_child = pid;
  ::sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  ::close(pipefd[1]);
  int e = 0;
  ssize_t n;
  do {
    n = ::read(pipefd[0], &e, sizeof e);
  } while (n < 0 && errno == EINTR);
  ::close(pipefd[0]);

  int st = 0;
  pid_t w;
  do {
    w = ::waitpid(pid, &st, 0);
  } while (w < 0 && errno == EINTR);
  g_child = 0;
  restore();

  if (n == sizeof e) {
    end.exec_errno = e;
    return end;
  }
  end.started = true;
  if (w == pid && WIFEXITED(st)) {
    end.exited = true;
    end.code = WEXITSTATUS(st);
  } else if (w == pid && WIFSIGNALED(st)) {
    end.signal = WTERMSIG(st);
  } else {
    end.exited = true;
    end.code = 1;
  }
  return end;
}

}  // namespace apps
}  // namespace addscope
