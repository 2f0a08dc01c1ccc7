// test_rule_kernels.cpp — the bitpacked kernels compiled for one rule at run time, on a GPU: once
// ready, each equals the CPU reference cell for cell (random rules, B0 rules among them, random
// soups, k = 1, 7, 16, 33); switched off, the general kernel runs and equals it too; without a
// device a wait ends with a reason; a process that ends while a rule's kernel compiles exits cleanly.
#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/cpu_engine.hpp"
#include "core/lattice.hpp"
#include "core/rule.hpp"
#include "kernels/bitpacked_shapes.hpp"
#include "kernels/life_kernels.hpp"
#include "kernels/rule_kernels.hpp"

#include "kernel_test.hpp"

namespace ls::kernel_tests {
namespace {

#define SKIP_WITHOUT_RULE_KERNELS() \
  if (const std::string why = ls::kernels::rule_kernels_unavailable(); !why.empty()) GTEST_SKIP() << why

/// Compiles are seconds on a loaded host; the first of a test waits for the worker to start too.
constexpr double kReadyTimeoutS = 120;

/// 20 random rules, every fourth born on 0 neighbours, none B3/S23 (which has its own kernel).
std::vector<Rule> random_rules() {
  std::mt19937 rng(20261127);
  std::vector<Rule> rules;
  while (rules.size() < 20) {
    Rule r{static_cast<std::uint16_t>(rng() & 0x1ff), static_cast<std::uint16_t>(rng() & 0x1ff)};
    if (rules.size() % 4 == 0) r.birth |= 1u;
    if (!r.is_life()) rules.push_back(r);
  }
  return rules;
}

struct RuleKernelsOn {
  ~RuleKernelsOn() { ls::kernels::set_rule_kernels_enabled(true); }
};

// Each rule's own kernel, waited for, equals the CPU reference after two launches of k generations.
TEST(RuleKernels, ARulesOwnKernelEqualsTheCpuReference) {
  SKIP_WITHOUT_DEVICE();
  SKIP_WITHOUT_RULE_KERNELS();
  const int w = 1024, h = 512;
  int i = 0;
  for (const Rule& rule : random_rules()) {
    for (const int k : {1, 7, 16, 33}) {
      SCOPED_TRACE("rule " + rule.to_string() + " k=" + std::to_string(k));
      ASSERT_TRUE(ls::kernels::wait_rule_kernels(masks(rule), w, h, k, kReadyTimeoutS))
          << ls::kernels::rule_kernels_unavailable();
      Lattice want = Lattice::random(w, h, 0.15 + 0.05 * (i % 8), 7000 + i);
      ++i;
      const Lattice got = run_on_device(Variant::bitpacked, want, rule, 2 * k, k);
      ls::cpu_run(want, rule, 2 * k);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

// Switched off, nothing is compiled or waited for, and the general kernel equals the CPU reference.
TEST(RuleKernels, SwitchedOffTheGeneralKernelEqualsTheCpuReference) {
  SKIP_WITHOUT_DEVICE();
  RuleKernelsOn on_again;
  ls::kernels::set_rule_kernels_enabled(false);
  EXPECT_NE(ls::kernels::rule_kernels_unavailable(), "");
  const std::vector<Rule> rules = random_rules();
  for (std::size_t i = 0; i < 4; ++i) {
    const Rule& rule = rules[i];
    EXPECT_FALSE(ls::kernels::wait_rule_kernels(masks(rule), 0.0));
    for (const int k : {1, 16, 33}) {
      SCOPED_TRACE("rule " + rule.to_string() + " k=" + std::to_string(k));
      Lattice want = Lattice::random(1024, 512, 0.3, 8000 + static_cast<int>(i) * 10 + k);
      const Lattice got = run_on_device(Variant::bitpacked, want, rule, 2 * k, k);
      ls::cpu_run(want, rule, 2 * k);
      ASSERT_TRUE(got == want) << first_difference(got, want);
    }
  }
}

// Without a device the worker cannot load a kernel: a wait ends at once with false, and the reason
// is there to show, instead of a hang (what a machine without a GPU or driver sees).
TEST(RuleKernels, WithoutADeviceAWaitEndsWithAReason) {
  if (has_device()) GTEST_SKIP() << "a device is present: its kernels are made (the tests above)";
  int blocks[ls::kernels::detail::kShapeCount] = {};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(ls::kernels::detail::wait_rule_kernels(0, {1u << 2, 0}, 1u, blocks, 60.0));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 30.0);
  EXPECT_NE(ls::kernels::rule_kernels_unavailable(), "");
}

/// The child's environment variable: the file it writes once its asks are queued.
constexpr const char* kLeavingChild = "LS_TEST_LEAVE_WHILE_COMPILING";
constexpr double kChildReadyTimeoutS = 60;
constexpr int kChildExitTimeoutS = 90;  // three children within the test's 300 s

// The child of the test below (disabled: run only by it, with --gtest_also_run_disabled_tests): one
// rule's kernels made, then four more asked for, and the process leaves while the worker compiles
// them. The file it writes tells the parent it got that far.
TEST(RuleKernels, DISABLED_LeavesWhileItsWorkerCompiles) {
  const char* marker = std::getenv(kLeavingChild);
  if (!marker) GTEST_SKIP() << "run by AProcessEndingWhileARuleCompilesExitsCleanly";
  SKIP_WITHOUT_DEVICE();
  const std::vector<Rule> rules = random_rules();
  ASSERT_TRUE(ls::kernels::wait_rule_kernels(masks(rules[0]), 1024, 512, 16, kChildReadyTimeoutS));
  for (std::size_t i = 1; i < 5; ++i) EXPECT_FALSE(ls::kernels::wait_rule_kernels(masks(rules[i]), 0.0));
  std::ofstream(marker) << "queued\n";
}

/// posix_spawn's file actions, destroyed on every way out.
struct SpawnActions {
  posix_spawn_file_actions_t actions;
  SpawnActions() { posix_spawn_file_actions_init(&actions); }
  ~SpawnActions() { posix_spawn_file_actions_destroy(&actions); }
};

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// NVRTC destroys its state at exit in handlers it registers during compiles: a process that leaves
// while a compile runs must still exit with status 0, neither crashing nor hanging. Three
// processes, each its own CUDA context, since one exit may miss the moment that matters.
TEST(RuleKernels, AProcessEndingWhileARuleCompilesExitsCleanly) {
  if (std::getenv(kLeavingChild)) GTEST_SKIP() << "the child of this test";
  SKIP_WITHOUT_DEVICE();
  SKIP_WITHOUT_RULE_KERNELS();
  std::string exe(4096, '\0');
  const ssize_t len = readlink("/proc/self/exe", exe.data(), exe.size() - 1);
  ASSERT_GT(len, 0);
  exe.resize(static_cast<std::size_t>(len));
  const std::string dir = ::testing::TempDir();
  const std::string marker = dir + "ls_leaving_child_" + std::to_string(getpid()) + ".txt";
  const std::string log = dir + "ls_leaving_child_" + std::to_string(getpid()) + ".log";
  std::string filter = "--gtest_filter=RuleKernels.DISABLED_LeavesWhileItsWorkerCompiles";
  std::string disabled = "--gtest_also_run_disabled_tests";
  char* argv[] = {exe.data(), filter.data(), disabled.data(), nullptr};
  // Not the parent's gtest settings (a shard of one test may hold none of it).
  std::vector<std::string> env_text{std::string(kLeavingChild) + "=" + marker};
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "GTEST_", 6) != 0) env_text.emplace_back(*e);
  std::vector<char*> envp;
  for (std::string& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  SpawnActions to_log;
  ASSERT_EQ(posix_spawn_file_actions_addopen(&to_log.actions, STDOUT_FILENO, log.c_str(),
                                             O_WRONLY | O_CREAT | O_TRUNC, 0644),
            0);
  ASSERT_EQ(posix_spawn_file_actions_adddup2(&to_log.actions, STDOUT_FILENO, STDERR_FILENO), 0);
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE("process " + std::to_string(run));
    std::remove(marker.c_str());
    pid_t pid = 0;
    ASSERT_EQ(posix_spawn(&pid, exe.c_str(), &to_log.actions, nullptr, argv, envp.data()), 0);
    int status = 0;
    const auto start = std::chrono::steady_clock::now();
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() - start > std::chrono::seconds(kChildExitTimeoutS)) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        FAIL() << "the process did not exit within " << kChildExitTimeoutS << " s (a hang at exit):\n"
               << file_text(log);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(WIFEXITED(status)) << "ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0)
                                   << ":\n"
                                   << file_text(log);
    EXPECT_EQ(WEXITSTATUS(status), 0) << file_text(log);
    EXPECT_EQ(file_text(marker), "queued\n") << "the child never left with compiles queued:\n"
                                             << file_text(log);
  }
  std::remove(marker.c_str());
  std::remove(log.c_str());
}

}  // namespace
}  // namespace ls::kernel_tests
