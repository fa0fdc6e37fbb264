// Writing outputs: regular files are replaced whole, and nothing that is not a regular file is
// replaced by one (as root, renaming over /dev/null would destroy it for the whole machine).
#include "core/support/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using shardscope::support::writeFileAtomically;
namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::span<const char> bytes(const std::string& s) { return {s.data(), s.size()}; }

class AtomicFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("shardscope-atomic-" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
};

} // namespace

TEST_F(AtomicFileTest, ReplacesARegularFileAndLeavesNoTemporary) {
  const fs::path file = m_dir / "out.txt";
  std::ofstream(file) << "old contents that are longer";
  std::string error;
  ASSERT_TRUE(writeFileAtomically(file.string(), bytes("new"), error)) << error;
  EXPECT_EQ(contents(file), "new");
  EXPECT_EQ(std::distance(fs::directory_iterator(m_dir), fs::directory_iterator()), 1);
}

TEST_F(AtomicFileTest, ASymlinkStaysALinkAndItsTargetIsReplaced) {
  const fs::path target = m_dir / "target.txt";
  const fs::path link = m_dir / "link.txt";
  std::ofstream(target) << "old";
  fs::create_symlink(target, link);
  std::string error;
  ASSERT_TRUE(writeFileAtomically(link.string(), bytes("new"), error)) << error;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(contents(target), "new");
}

TEST_F(AtomicFileTest, ADeviceIsWrittenInPlaceNotReplaced) {
  std::string error;
  ASSERT_TRUE(writeFileAtomically("/dev/null", bytes("discarded"), error)) << error;
  EXPECT_TRUE(fs::is_character_file(fs::status("/dev/null")));
  EXPECT_EQ(contents("/dev/null"), "");
}

TEST_F(AtomicFileTest, ADirectoryIsRefused) {
  std::string error;
  EXPECT_FALSE(writeFileAtomically(m_dir.string(), bytes("x"), error));
  EXPECT_NE(error.find("directory"), std::string::npos) << error;
  EXPECT_TRUE(fs::is_directory(m_dir));
}

TEST_F(AtomicFileTest, TemporaryFilesAreRemovedWhenTheProcessIsTerminated) {
  // A child process registers a temporary file and a directory holding one, then gets SIGTERM:
  // both must be gone and the child must still die of the signal.
  const fs::path dir = m_dir / "staging";
  const fs::path inDir = dir / "result_0.npy";
  const fs::path file = m_dir / "out.txt.tmp-shardscope-1";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    shardscope::support::removeTemporaryFilesOnSignal();
    fs::create_directory(dir);
    shardscope::support::registerTemporaryFile(dir.string());
    shardscope::support::registerTemporaryFile(inDir.string());
    shardscope::support::registerTemporaryFile(file.string());
    std::ofstream(inDir) << "partial";
    std::ofstream(file) << "partial";
    ::raise(SIGTERM);
    ::_exit(0); // not reached
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
  EXPECT_FALSE(fs::exists(file));
  EXPECT_FALSE(fs::exists(inDir));
  EXPECT_FALSE(fs::exists(dir));
}

TEST_F(AtomicFileTest, UnregisteredFilesSurviveTheSignal) {
  const fs::path file = m_dir / "kept.txt";
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    shardscope::support::removeTemporaryFilesOnSignal();
    int slot = shardscope::support::registerTemporaryFile(file.string());
    std::ofstream(file) << "done";
    shardscope::support::unregisterTemporaryFile(slot);
    ::raise(SIGTERM);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(contents(file), "done");
}
