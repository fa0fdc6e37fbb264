// The serve server driven through pipes, as the app's client drives the CLI's child: requests in,
// one JSON response line per request out, and a failure to write ends it with a reason.
#include "core/session/serve/identity.h"
#include "core/session/serve/server.h"

#include "tests/core/session/session_test_util.h"

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace shardscope;
using namespace shardscope::session;
using namespace shardscope::session::testing;

namespace {

serve::ServerOptions options(int in, int out) {
  serve::ServerOptions o;
  o.maxLineBytes = 1 << 20;
  o.maxTensorBytes = int64_t{1} << 30;
  o.maxTensorBytesHint = "raise it with --max-tensor-bytes";
  o.maxDevices = 64;
  o.maxDevicesHint = "raise it with --max-devices";
  o.maxSteps = 100000;
  // As the CLI's reader: the text goes into `sources` first, so that the diagnostics of a load
  // that fails are located in it.
  o.loadProgram = [](const std::string& path, support::SourceManager& sources,
                     support::DiagnosticSink& sink) -> std::unique_ptr<Program> {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    sources.addBuffer(path, text.str());
    return Program::fromText(path, text.str(), sink);
  };
  o.inputFd = in;
  o.outputFd = out;
  return o;
}

// Runs the server on `requests` and returns everything it wrote, and its exit code.
std::pair<std::string, int> exchange(const std::string& requests) {
  int in[2], out[2];
  EXPECT_EQ(pipe(in), 0);
  EXPECT_EQ(pipe(out), 0);
  EXPECT_EQ(write(in[1], requests.data(), requests.size()), static_cast<ssize_t>(requests.size()));
  close(in[1]);
  std::string error;
  int code = 0;
  std::thread server([&] { code = serve::serve(options(in[0], out[1]), error); });
  std::string written;
  server.join();
  close(out[1]);
  char chunk[4096];
  for (ssize_t n; (n = read(out[0], chunk, sizeof chunk)) > 0;)
    written.append(chunk, static_cast<size_t>(n));
  close(in[0]);
  close(out[0]);
  EXPECT_TRUE(error.empty()) << error;
  return {written, code};
}

} // namespace

TEST(ServeTest, AnswersEachRequestOnItsOwnLine) {
  const std::string program = dataPath("session/global_matmul.mlir");
  auto [written, code] = exchange("{\"id\":1,\"cmd\":\"hello\"}\n"
                                  "{\"id\":2,\"cmd\":\"load\",\"path\":\"" + program + "\"}\n"
                                  "{\"id\":3,\"cmd\":\"frobnicate\"}\n"
                                  "{\"id\":4,\"cmd\":\"quit\"}\n");
  EXPECT_EQ(code, 0);
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = written.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(written.substr(at, nl - at));
  ASSERT_EQ(lines.size(), 4u) << written;
  EXPECT_NE(lines[0].find("\"protocol\":\"" + std::string(serve::kProtocolName) + "\""),
            std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("\"version\":" + std::to_string(serve::kProtocolVersion)),
            std::string::npos);
  // global_matmul.mlir runs on a 2x2 mesh.
  EXPECT_NE(lines[1].find("\"devices\":4"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("\"id\":2"), std::string::npos);
  EXPECT_NE(lines[2].find("\"ok\":false"), std::string::npos) << lines[2];
  EXPECT_NE(lines[2].find("unknown command 'frobnicate'"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find("\"id\":4"), std::string::npos);
}

TEST(ServeTest, AFailedLoadIsLocatedWithItsOwnSources) {
  auto [written, code] =
      exchange("{\"id\":1,\"cmd\":\"load\",\"path\":\"" + dataPath("bad/verifier/unknown_stablehlo_op.mlir") +
               "\"}\n");
  EXPECT_EQ(code, 0);
  EXPECT_NE(written.find("\"ok\":false"), std::string::npos) << written;
  EXPECT_NE(written.find("unknown_stablehlo_op.mlir:5:"), std::string::npos) << written;
}

TEST(ServeTest, AClosedOutputEndsTheServerWithAReason) {
  std::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2];
  ASSERT_EQ(pipe(in), 0);
  ASSERT_EQ(pipe(out), 0);
  const std::string request = "{\"id\":1,\"cmd\":\"hello\"}\n";
  ASSERT_EQ(write(in[1], request.data(), request.size()), static_cast<ssize_t>(request.size()));
  close(in[1]);
  close(out[0]); // nobody reads the responses
  std::string error;
  EXPECT_EQ(serve::serve(options(in[0], out[1]), error), 1);
  EXPECT_NE(error.find("could not write the response"), std::string::npos) << error;
  close(in[0]);
  close(out[1]);
}

TEST(ServeTest, AnUnknownBackendIsRefused) {
  EXPECT_TRUE(serve::hasBackend("local"));
  EXPECT_FALSE(serve::hasBackend("carrier-pigeon"));
  serve::ServerOptions o = options(0, 1);
  o.backend = "carrier-pigeon";
  std::string error;
  EXPECT_EQ(serve::serve(o, error), 1);
  EXPECT_EQ(error, "unknown backend 'carrier-pigeon'");
}
