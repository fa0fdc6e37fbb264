#include "core/exec/interpreter.h"

#include "core/exec/communicator.h"
#include "core/exec/detail/check_ops.h"
#include "core/exec/detail/collectives.h"
#include "core/exec/detail/kernel.h"
#include "core/exec/detail/quant.h"
#include "core/exec/process_groups.h"
#include "core/exec/spmd_executor.h"

#include "core/ir/stablehlo_attrs.h"

#include <algorithm>
#include <deque>
#include <map>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

namespace shardscope::exec {

namespace {

// Why a frame was pushed; decides what happens to the values its terminator returns.
enum class FrameKind { Entry, Call, WhileCond, WhileBody, CaseBranch, NestedRegion };

// For each op of a block, by position: the values defined in the block (arguments and results)
// whose last use is that op, so a frame can free them once it has run, and the operands the op
// may take over (moved out of the frame instead of shared): those it uses last, once, and not
// from its regions. An op whose regions use a value counts as using it; a value nothing uses is
// last "used" by the op after its definition, so the step that computes it can still read it.
struct BlockLiveness {
  std::vector<std::vector<const ir::Value*>> freeAfter;
  std::vector<std::vector<unsigned>> takeOver;
};

BlockLiveness analyseBlock(const ir::Block& block) {
  BlockLiveness live;
  std::unordered_map<const ir::Value*, size_t> last;
  std::unordered_set<const ir::Value*> inRegions; // used from the regions of their last user
  size_t index = 0;
  for (const auto& arg : block.arguments())
    last[arg.get()] = 0;
  for (const auto& op : block.ops()) {
    const ir::Operation& self = *op;
    self.walk([&](const ir::Operation& inner) {
      for (unsigned i = 0; i < inner.numOperands(); ++i) {
        auto it = last.find(inner.operand(i));
        if (it == last.end())
          continue;
        if (it->second != index)
          inRegions.erase(it->first);
        it->second = index;
        if (&inner != &self)
          inRegions.insert(it->first);
      }
    });
    for (unsigned i = 0; i < op->numResults(); ++i)
      last[op->result(i)] = index + 1;
    ++index;
  }
  live.freeAfter.resize(index + 1);
  live.takeOver.resize(index + 1);
  for (const auto& [value, at] : last)
    live.freeAfter[std::min(at, index)].push_back(value);
  index = 0;
  for (const auto& op : block.ops()) {
    // `recv` may wait at its op for several steps, so it must find its operands again.
    if (!op->is("stablehlo.recv"))
      for (unsigned i = 0; i < op->numOperands(); ++i) {
        const ir::Value* v = op->operand(i);
        auto it = last.find(v);
        bool again = false;
        for (unsigned j = i + 1; j < op->numOperands(); ++j)
          again = again || op->operand(j) == v;
        if (it != last.end() && it->second == index && !inRegions.count(v) && !again)
          live.takeOver[index].push_back(i);
      }
    ++index;
  }
  return live;
}

struct Frame {
  FrameKind kind = FrameKind::Entry;
  const ir::Block* block = nullptr;
  ir::Block::OpList::const_iterator pc;
  size_t index = 0; // position of `pc` in the block
  const BlockLiveness* live = nullptr; // null: keep every value until the frame returns
  const ir::Operation* owner = nullptr; // the call/while/case op; null for the entry frame
  std::unordered_map<const ir::Value*, Tensor> env;
  std::vector<Tensor> args; // while frames: the loop-carried values they were entered with
};

// What one `interpreter.run_parallel` grid shares: its infeed queue and its channels. Devices
// run their steps one after another, but collectives run on threads, so access is locked.
struct GridTransfers {
  std::mutex mutex;
  std::deque<std::vector<Tensor>> infeed;
  std::map<int64_t, std::deque<std::vector<Tensor>>> channels;
};

// The hooks of a grid's devices: the outer ones, plus infeed / send / recv on shared state.
InterpreterHooks gridHooks(const InterpreterHooks& outer, std::vector<std::vector<Tensor>> infeed) {
  auto shared = std::make_shared<GridTransfers>();
  shared->infeed.assign(std::make_move_iterator(infeed.begin()),
                        std::make_move_iterator(infeed.end()));
  InterpreterHooks hooks = outer;
  hooks.infeed = [shared]() -> std::optional<std::vector<Tensor>> {
    std::lock_guard lock(shared->mutex);
    if (shared->infeed.empty())
      return std::nullopt;
    std::vector<Tensor> front = std::move(shared->infeed.front());
    shared->infeed.pop_front();
    return front;
  };
  hooks.send = [shared](int64_t channel, std::vector<Tensor> values) {
    std::lock_guard lock(shared->mutex);
    shared->channels[channel].push_back(std::move(values));
  };
  hooks.recv = [shared](int64_t channel) -> std::optional<std::vector<Tensor>> {
    std::lock_guard lock(shared->mutex);
    auto& queue = shared->channels[channel];
    if (queue.empty())
      return std::nullopt;
    std::vector<Tensor> front = std::move(queue.front());
    queue.pop_front();
    return front;
  };
  return hooks;
}

bool isTerminator(const ir::Operation& op) {
  return op.is("func.return") || op.is("return") || op.is("stablehlo.return") ||
         op.is("sdy.return");
}

} // namespace

/// The mutable part of a run: the frame stack and the run's outcome. It is also the
/// `RegionRunner` kernels use for reduce bodies, which run as nested frames on the same stack.
class InterpreterState final : public detail::RegionRunner {
public:
  InterpreterState(const ir::Module& module, support::DiagnosticSink& sink,
                   const DeviceContext& context, const CommunicatorFactory& factory,
                   const InterpreterHooks& hooks)
      : m_module(module), m_sink(sink), m_context(context), m_factory(factory), m_hooks(hooks) {}

  bool pushFunction(const ir::Operation& fn, std::vector<Tensor> args, FrameKind kind,
                    const ir::Operation* owner, support::SourceLocation loc);
  bool step();
  std::optional<std::vector<Tensor>> runRegion(const ir::Region& region,
                                               std::vector<Tensor> args) override;

  std::vector<Frame> frames;
  std::vector<Tensor> results;
  bool done = false;
  bool failed = false;
  bool failedCheck = false;
  int64_t steps = 0;
  int64_t stepLimit = 1'000'000'000;

  const Tensor* lookup(const ir::Value* value) const;

  ValueRetention retention = ValueRetention::KeepAll;
  const ValueReleaseHook* onRelease = nullptr;

private:
  const BlockLiveness* livenessOf(const ir::Block& block);
  void release(Frame& frame, const ir::Value* value, const ir::Operation& lastUser);
  bool fail(support::SourceLocation loc, std::string message);
  bool pushBlock(const ir::Block& block, std::vector<Tensor> args, FrameKind kind,
                 const ir::Operation* owner);
  bool gatherOperands(const ir::Operation& op, std::vector<Tensor>& out);
  bool bindResults(const ir::Operation& op, std::vector<Tensor> values);
  bool finishFrame(std::vector<Tensor> values);
  bool enterWhile(const ir::Operation& op, std::vector<Tensor> operands);
  bool enterCase(const ir::Operation& op, std::vector<Tensor> operands);
  bool enterIf(const ir::Operation& op, std::vector<Tensor> operands);
  bool enterNamedComputation(const ir::Operation& op, std::vector<Tensor> operands);
  bool enterCall(const ir::Operation& op, std::vector<Tensor> operands);
  bool runKernel(const ir::Operation& op, std::vector<Tensor> operands);
  bool runParallel(const ir::Operation& op, std::vector<Tensor> operands);
  bool runHostTransfer(const ir::Operation& op, std::vector<Tensor> operands);
  std::optional<std::vector<std::vector<Tensor>>> infeedQueue(const ir::Operation& op);

  const ir::Module& m_module;
  support::DiagnosticSink& m_sink;
  const DeviceContext& m_context;
  const CommunicatorFactory& m_factory;
  const InterpreterHooks& m_hooks;
  std::vector<Tensor> m_nestedResults;
  int64_t m_recvWaits = 0; ///< consecutive steps spent waiting at one `recv`
  std::unordered_map<const ir::Block*, std::unique_ptr<BlockLiveness>> m_liveness;
};

const BlockLiveness* InterpreterState::livenessOf(const ir::Block& block) {
  if (retention == ValueRetention::KeepAll)
    return nullptr;
  std::unique_ptr<BlockLiveness>& live = m_liveness[&block];
  if (!live)
    live = std::make_unique<BlockLiveness>(analyseBlock(block));
  return live.get();
}

void InterpreterState::release(Frame& frame, const ir::Value* value,
                               const ir::Operation& lastUser) {
  auto it = frame.env.find(value);
  if (it == frame.env.end())
    return;
  // Reduce bodies and the like run once per element: their scalars are nobody's history.
  if (onRelease && *onRelease && frame.kind != FrameKind::NestedRegion)
    (*onRelease)(*value, lastUser, it->second);
  frame.env.erase(it);
}

bool InterpreterState::fail(support::SourceLocation loc, std::string message) {
  m_sink.error(loc, std::move(message));
  failed = true;
  return false;
}

bool InterpreterState::pushBlock(const ir::Block& block, std::vector<Tensor> args, FrameKind kind,
                                 const ir::Operation* owner) {
  support::SourceLocation loc = owner ? owner->loc() : support::SourceLocation{};
  if (args.size() != block.numArguments())
    return fail(loc, "expected " + std::to_string(block.numArguments()) + " arguments, got " +
                         std::to_string(args.size()));
  Frame frame;
  frame.kind = kind;
  frame.block = &block;
  frame.pc = block.ops().begin();
  frame.owner = owner;
  frame.live = livenessOf(block);
  for (unsigned i = 0; i < block.numArguments(); ++i) {
    ir::Type expected = block.argument(i)->type();
    if (expected.isTensor() && expected != args[i].type())
      return fail(loc, "argument " + std::to_string(i) + ": expected " + expected.str() + ", got " +
                           args[i].type().str());
  }
  // While frames keep the values they were entered with (the loop carries them on); every other
  // frame takes its arguments over without copying them.
  bool keepArgs = kind == FrameKind::WhileCond || kind == FrameKind::WhileBody;
  for (unsigned i = 0; i < block.numArguments(); ++i)
    frame.env[block.argument(i)] = keepArgs ? args[i] : std::move(args[i]);
  if (keepArgs)
    frame.args = std::move(args);
  frames.push_back(std::move(frame));
  return true;
}

bool InterpreterState::pushFunction(const ir::Operation& fn, std::vector<Tensor> args,
                                    FrameKind kind, const ir::Operation* owner,
                                    support::SourceLocation loc) {
  const ir::Block* body = ir::func::body(fn);
  if (!body)
    return fail(loc, "function '" + std::string(ir::func::name(fn)) + "' has no body");
  return pushBlock(*body, std::move(args), kind, owner);
}

const Tensor* InterpreterState::lookup(const ir::Value* value) const {
  // Regions of while/case/reduce may use values of enclosing blocks; functions may not.
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (auto found = it->env.find(value); found != it->env.end())
      return &found->second;
    if (it->kind == FrameKind::Entry || it->kind == FrameKind::Call)
      break;
  }
  return nullptr;
}

bool InterpreterState::gatherOperands(const ir::Operation& op, std::vector<Tensor>& out) {
  out.clear();
  Frame& frame = frames.back();
  const std::vector<unsigned>* take = frame.live ? &frame.live->takeOver[frame.index] : nullptr;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    const ir::Value* value = op.operand(i);
    // The op's last use of a value of this frame takes it over, so that a kernel writing in
    // place (an all-reduce) finds its buffer unshared.
    if (take && std::find(take->begin(), take->end(), i) != take->end())
      if (auto it = frame.env.find(value); it != frame.env.end()) {
        if (onRelease && *onRelease && frame.kind != FrameKind::NestedRegion)
          (*onRelease)(*value, op, it->second);
        out.push_back(std::move(it->second));
        frame.env.erase(it);
        continue;
      }
    const Tensor* t = lookup(value);
    if (!t)
      return fail(op.loc(), "operand " + std::to_string(i) + " of '" + std::string(op.name()) +
                                "' has no value (unsupported type or not yet computed)");
    out.push_back(*t);
  }
  return true;
}

bool InterpreterState::bindResults(const ir::Operation& op, std::vector<Tensor> values) {
  if (values.size() != op.numResults())
    return fail(op.loc(), "'" + std::string(op.name()) + "' produced " +
                              std::to_string(values.size()) + " values for " +
                              std::to_string(op.numResults()) + " results");
  for (unsigned i = 0; i < op.numResults(); ++i) {
    ir::Type expected = op.result(i)->type();
    if (std::optional<detail::QuantType> q = detail::quantTypeOf(expected))
      expected = q->storageType(); // quantized values are held in their storage type
    // A kernel that disagrees with the declared type is a bug or an unverified program; either
    // way later ops would read garbage, so stop here.
    if (expected != values[i].type())
      return fail(op.loc(), "'" + std::string(op.name()) + "' result " + std::to_string(i) +
                                ": expected " + expected.str() + ", got " + values[i].type().str());
    frames.back().env[op.result(i)] = std::move(values[i]);
  }
  Frame& frame = frames.back();
  ++frame.pc;
  size_t done = frame.index++;
  if (frame.live)
    for (const ir::Value* value : frame.live->freeAfter[done])
      release(frame, value, op);
  return true;
}

bool InterpreterState::finishFrame(std::vector<Tensor> values) {
  Frame popped = std::move(frames.back());
  frames.pop_back();
  if (popped.live && popped.pc != popped.block->ops().end()) {
    // What the frame still holds goes now; the terminator is its last user.
    std::vector<const ir::Value*> held;
    for (const auto& [value, tensor] : popped.env)
      held.push_back(value);
    for (const ir::Value* value : held)
      release(popped, value, **popped.pc);
  }
  switch (popped.kind) {
  case FrameKind::Entry:
    results = std::move(values);
    done = true;
    return true;
  case FrameKind::NestedRegion:
    m_nestedResults = std::move(values);
    return true;
  case FrameKind::Call:
  case FrameKind::CaseBranch:
    return bindResults(*popped.owner, std::move(values));
  case FrameKind::WhileCond:
    if (values.size() != 1 || values[0].numElements() != 1)
      return fail(popped.owner->loc(), "while condition must return one i1 scalar");
    if (values[0].intAt(0))
      return pushBlock(popped.owner->region(1).front(), std::move(popped.args),
                       FrameKind::WhileBody, popped.owner);
    return bindResults(*popped.owner, std::move(popped.args));
  case FrameKind::WhileBody:
    return pushBlock(popped.owner->region(0).front(), std::move(values), FrameKind::WhileCond,
                     popped.owner);
  }
  return false;
}

bool InterpreterState::enterWhile(const ir::Operation& op, std::vector<Tensor> operands) {
  if (op.numRegions() != 2 || op.region(0).empty() || op.region(1).empty())
    return fail(op.loc(), "'stablehlo.while' needs a condition and a body region");
  return pushBlock(op.region(0).front(), std::move(operands), FrameKind::WhileCond, &op);
}

bool InterpreterState::enterCase(const ir::Operation& op, std::vector<Tensor> operands) {
  if (operands.size() != 1 || operands[0].numElements() != 1 || op.numRegions() == 0)
    return fail(op.loc(), "'stablehlo.case' needs a scalar index and at least one branch");
  // StableHLO: an out-of-range index selects the last branch.
  int64_t index = operands[0].intAt(0);
  int64_t last = static_cast<int64_t>(op.numRegions()) - 1;
  if (index < 0 || index > last)
    index = last;
  const ir::Region& branch = op.region(static_cast<unsigned>(index));
  if (branch.empty())
    return fail(op.loc(), "empty case branch " + std::to_string(index));
  return pushBlock(branch.front(), {}, FrameKind::CaseBranch, &op);
}

bool InterpreterState::enterIf(const ir::Operation& op, std::vector<Tensor> operands) {
  if (operands.size() != 1 || operands[0].numElements() != 1 || op.numRegions() != 2)
    return fail(op.loc(), "'stablehlo.if' needs a scalar i1 predicate and two branches");
  // StableHLO: the true branch is region 0, the false branch region 1.
  unsigned index = operands[0].intAt(0) ? 0 : 1;
  const ir::Region& branch = op.region(index);
  if (branch.empty())
    return fail(op.loc(), std::string("empty ") + (index ? "false" : "true") + " branch");
  return pushBlock(branch.front(), {}, FrameKind::CaseBranch, &op);
}

bool InterpreterState::enterNamedComputation(const ir::Operation& op,
                                             std::vector<Tensor> operands) {
  // A named computation is a call whose callee is written inline: its body takes the operands as
  // block arguments, sees nothing outside, and its sdy.return gives the results.
  if (op.numRegions() != 1 || op.region(0).empty())
    return fail(op.loc(), "'sdy.named_computation' needs a body");
  if (frames.size() > 10000)
    return fail(op.loc(), "call stack too deep (recursion?)");
  return pushBlock(op.region(0).front(), std::move(operands), FrameKind::Call, &op);
}

bool InterpreterState::enterCall(const ir::Operation& op, std::vector<Tensor> operands) {
  const auto* callee = op.attr("callee").as<ir::SymbolRefAttr>();
  const ir::Operation* fn =
      callee && !callee->path.empty() ? m_module.lookupFunction(callee->path.back()) : nullptr;
  if (!fn)
    return fail(op.loc(), "call to an unknown function");
  if (frames.size() > 10000)
    return fail(op.loc(), "call stack too deep (recursion?)");
  return pushFunction(*fn, std::move(operands), FrameKind::Call, &op, op.loc());
}

bool InterpreterState::runKernel(const ir::Operation& op, std::vector<Tensor> operands) {
  std::vector<Tensor> values;
  detail::KernelContext ctx{op, operands, values, m_sink, *this};
  ctx.ownedOperands = &operands; // dropped after the op anyway
  size_t depth = frames.size();
  bool ok = false;
  if (detail::isDeviceOp(op.name())) {
    ok = detail::runDeviceOp(ctx, m_context);
  } else if (detail::isCheckOp(op)) {
    ok = detail::runCheckOp(ctx, failedCheck, m_hooks);
  } else if (detail::isInterpreterIoOp(op)) {
    ok = detail::runInterpreterIoOp(ctx, m_hooks);
  } else {
    detail::Kernel kernel = detail::findKernel(op.name());
    if (!kernel)
      return fail(op.loc(), "unsupported op '" + std::string(op.name()) + "' in the interpreter");
    // Quantized operands and results: StableHLO runs the op on dequantized values, except for the
    // ops that convert between quantized and other types themselves.
    bool convertsQuant = op.is("stablehlo.uniform_quantize") ||
                         op.is("stablehlo.uniform_dequantize") ||
                         op.is("stablehlo.bitcast_convert");
    ok = !convertsQuant && detail::hasQuantTypes(op) ? detail::runDequantized(ctx, kernel)
                                                     : kernel(ctx);
  }
  if (!ok) {
    failed = true;
    return false;
  }
  if (failed || frames.size() != depth)
    return false;
  return bindResults(op, std::move(values));
}

bool InterpreterState::step() {
  if (done || failed || frames.empty())
    return false;
  if (++steps > stepLimit)
    return fail(frames.back().owner ? frames.back().owner->loc() : support::SourceLocation{},
                "step limit of " + std::to_string(stepLimit) + " ops exceeded");
  Frame& frame = frames.back();
  if (frame.pc == frame.block->ops().end())
    return fail(frame.owner ? frame.owner->loc() : support::SourceLocation{},
                "block ended without a terminator");
  const ir::Operation& op = **frame.pc;
  std::vector<Tensor> operands;
  if (!gatherOperands(op, operands))
    return false;
  if (isTerminator(op))
    return finishFrame(std::move(operands));
  if (op.is("stablehlo.while"))
    return enterWhile(op, std::move(operands));
  if (op.is("stablehlo.case"))
    return enterCase(op, std::move(operands));
  if (op.is("stablehlo.if"))
    return enterIf(op, std::move(operands));
  if (op.is("sdy.named_computation"))
    return enterNamedComputation(op, std::move(operands));
  if (op.is("func.call") || op.is("call"))
    return enterCall(op, std::move(operands));
  if (op.is("interpreter.run_parallel"))
    return runParallel(op, std::move(operands));
  if (op.is("stablehlo.infeed") || op.is("stablehlo.send") || op.is("stablehlo.recv"))
    return runHostTransfer(op, std::move(operands));
  return runKernel(op, std::move(operands));
}

namespace {

// `channel_handle = #stablehlo.channel_handle<handle = 1, type = 2>`; 0 when absent.
int64_t channelHandle(const ir::Operation& op) {
  const auto* opaque = op.attr("channel_handle").as<ir::OpaqueAttr>();
  auto fields = opaque ? ir::stablehlo::parseStablehloStruct(opaque->text, "channel_handle")
                       : std::nullopt;
  if (!fields)
    return 0;
  auto it = fields->find("handle");
  return it != fields->end() && !it->second.empty() ? it->second[0] : 0;
}

// A `recv` waits this many lockstep steps for its `send` before the run is declared stuck.
constexpr int64_t kMaxRecvWaits = 100000;

} // namespace

// infeed / send / recv go through the hooks `interpreter.run_parallel` installs: the grid's
// infeed queue and its channels. Each ends with the token that orders the effect.
bool InterpreterState::runHostTransfer(const ir::Operation& op, std::vector<Tensor> operands) {
  std::string name(op.name());
  std::vector<Tensor> values;
  if (op.is("stablehlo.send")) {
    if (!m_hooks.send)
      return fail(op.loc(), "'" + name + "' needs an 'interpreter.run_parallel' grid");
    if (!operands.empty())
      operands.pop_back(); // the token
    m_hooks.send(channelHandle(op), std::move(operands));
  } else {
    auto hook = op.is("stablehlo.recv") ? m_hooks.recv : nullptr;
    if (op.is("stablehlo.infeed") ? !m_hooks.infeed : !hook)
      return fail(op.loc(), "'" + name + "' needs an 'interpreter.run_parallel' grid" +
                                (op.is("stablehlo.infeed") ? " with an 'infeed' queue" : ""));
    std::optional<std::vector<Tensor>> got =
        op.is("stablehlo.infeed") ? m_hooks.infeed() : hook(channelHandle(op));
    if (!got && op.is("stablehlo.infeed"))
      return fail(op.loc(), "the infeed queue is empty");
    if (!got) {
      // Nothing sent yet: stay at the op; the sender runs in this or a later step.
      if (++m_recvWaits > kMaxRecvWaits)
        return fail(op.loc(), "nothing was sent on channel " +
                                  std::to_string(channelHandle(op)) + " for this 'recv'");
      return true;
    }
    m_recvWaits = 0;
    values = std::move(*got);
  }
  values.push_back(Tensor::token());
  return bindResults(op, std::move(values));
}

// The entries of `run_parallel`'s infeed queue: the results of its `infeed` functions, in order.
std::optional<std::vector<std::vector<Tensor>>>
InterpreterState::infeedQueue(const ir::Operation& op) {
  std::vector<std::vector<Tensor>> queue;
  const auto* list = op.attr("infeed").as<ir::ArrayAttr>();
  if (!list)
    return queue;
  for (const ir::Attribute& sym : list->elements) {
    const auto* ref = sym.as<ir::SymbolRefAttr>();
    if (!ref || ref->path.empty() || !m_module.lookupFunction(ref->path.back())) {
      fail(op.loc(), "'infeed' names an unknown function " + sym.str());
      return std::nullopt;
    }
    Interpreter feeder(m_module);
    std::optional<std::vector<Tensor>> values = feeder.run(ref->path.back(), {}, m_sink);
    if (!values) {
      failed = true;
      return std::nullopt;
    }
    queue.push_back(std::move(*values));
  }
  return queue;
}

// `"interpreter.run_parallel"(inputs...) {programs = [[@f, @g], ...]}`: a num_replicas x
// num_partitions grid of functions; inputs and results are the programs' arguments and results
// concatenated in row-major program order.
bool InterpreterState::runParallel(const ir::Operation& op, std::vector<Tensor> operands) {
  const auto* rows = op.attr("programs").as<ir::ArrayAttr>();
  if (!rows || rows->elements.empty())
    return fail(op.loc(), "'interpreter.run_parallel' needs 'programs', a non-empty list of "
                          "lists of function symbols");
  std::vector<std::string> functions;
  int64_t numPartitions = -1;
  size_t nextInput = 0;
  std::vector<std::vector<Tensor>> inputs;
  for (const ir::Attribute& row : rows->elements) {
    const auto* cols = row.as<ir::ArrayAttr>();
    if (!cols || cols->elements.empty() ||
        (numPartitions >= 0 && numPartitions != static_cast<int64_t>(cols->elements.size())))
      return fail(op.loc(), "'programs' must be a rectangular list of lists of function symbols");
    numPartitions = static_cast<int64_t>(cols->elements.size());
    for (const ir::Attribute& sym : cols->elements) {
      const auto* ref = sym.as<ir::SymbolRefAttr>();
      const ir::Operation* fn =
          ref && !ref->path.empty() ? m_module.lookupFunction(ref->path.back()) : nullptr;
      if (!fn)
        return fail(op.loc(), "'programs' names an unknown function " + sym.str());
      size_t n = ir::func::type(*fn).elements().size();
      if (nextInput + n > operands.size())
        return fail(op.loc(), "'interpreter.run_parallel' has " + std::to_string(operands.size()) +
                                  " inputs, fewer than its programs take");
      inputs.emplace_back(std::make_move_iterator(operands.begin() + nextInput),
                          std::make_move_iterator(operands.begin() + nextInput + n));
      nextInput += n;
      functions.emplace_back(ref->path.back());
    }
  }
  if (nextInput != operands.size())
    return fail(op.loc(), "'interpreter.run_parallel' has " + std::to_string(operands.size()) +
                              " inputs, but its programs take " + std::to_string(nextInput));
  if (!m_factory)
    return fail(op.loc(), "'interpreter.run_parallel' needs a multi-device backend "
                          "(no communicator factory installed)");
  int64_t numReplicas = static_cast<int64_t>(rows->elements.size());
  std::unique_ptr<Communicator> comm = m_factory(numReplicas * numPartitions);
  if (!comm)
    return fail(op.loc(), "could not create a communicator for " +
                              std::to_string(numReplicas * numPartitions) + " devices");
  std::optional<std::vector<std::vector<Tensor>>> infeed = infeedQueue(op);
  if (!infeed)
    return false;
  SpmdOptions options;
  options.numReplicas = numReplicas;
  options.numPartitions = numPartitions;
  options.stepLimit = stepLimit;
  options.communicatorFactory = m_factory;
  options.hooks = gridHooks(m_hooks, std::move(*infeed));
  SpmdExecutor executor(m_module, *comm, options);
  if (!executor.start(functions, std::move(inputs), m_sink) || !executor.runToEnd()) {
    failed = true;
    return false;
  }
  std::vector<Tensor> results;
  for (int64_t d = 0; d < executor.numDevices(); ++d)
    for (const Tensor& t : executor.results(d))
      results.push_back(t);
  for (int64_t d = 0; d < executor.numDevices(); ++d)
    failedCheck = failedCheck || executor.interpreter(d).failedCheck();
  return bindResults(op, std::move(results));
}

std::optional<std::vector<Tensor>> InterpreterState::runRegion(const ir::Region& region,
                                                               std::vector<Tensor> args) {
  if (region.empty()) {
    fail(frames.empty() ? support::SourceLocation{} : (*frames.back().pc)->loc(), "empty region");
    return std::nullopt;
  }
  size_t base = frames.size();
  if (!pushBlock(region.front(), std::move(args), FrameKind::NestedRegion,
                 frames.empty() ? nullptr : frames.back().pc->get()))
    return std::nullopt;
  // Reduce bodies are tiny and run once per element; running them to completion here keeps the
  // kernel interface simple while still using the same frame stack.
  while (frames.size() > base)
    if (!step())
      return std::nullopt;
  return std::move(m_nestedResults);
}

std::optional<std::vector<Tensor>> evaluateOp(const ir::Module& module, const ir::Operation& op,
                                              std::vector<Tensor> operands,
                                              support::DiagnosticSink& sink) {
  if (isTerminator(op) || op.is("stablehlo.while") || op.is("stablehlo.case") ||
      op.is("stablehlo.if") || op.is("sdy.named_computation") || op.is("func.call") ||
      op.is("call") || op.is("interpreter.run_parallel") || detail::isDeviceOp(op.name()) ||
      detail::isCheckOp(op) || detail::isInterpreterIoOp(op))
    return std::nullopt;
  detail::Kernel kernel = detail::findKernel(op.name());
  if (!kernel)
    return std::nullopt;
  DeviceContext context;
  CommunicatorFactory factory;
  InterpreterHooks hooks;
  InterpreterState state(module, sink, context, factory, hooks);
  std::vector<Tensor> values;
  detail::KernelContext ctx{op, operands, values, sink, state};
  if (!kernel(ctx) || state.failed || values.size() != op.numResults())
    return std::nullopt;
  return values;
}

Interpreter::Interpreter(const ir::Module& module) : m_module(module) {
  retainFreedTensorMemory();
}
Interpreter::~Interpreter() = default;

bool Interpreter::start(std::string_view name, std::vector<Tensor> inputs,
                        support::DiagnosticSink& sink) {
  m_state = std::make_unique<InterpreterState>(m_module, sink, m_context, m_factory, m_hooks);
  m_state->stepLimit = m_stepLimit;
  m_state->retention = m_retention;
  m_state->onRelease = &m_onRelease;
  const ir::Operation* fn = m_module.lookupFunction(name);
  if (!fn) {
    sink.error({}, "no function named \"" + std::string(name) + "\"");
    m_state->failed = true;
    return false;
  }
  return m_state->pushFunction(*fn, std::move(inputs), FrameKind::Entry, nullptr, fn->loc());
}

bool Interpreter::step() { return m_state && m_state->step() && !m_state->done; }

bool Interpreter::finished() const { return m_state && m_state->done; }

const ir::Operation* Interpreter::currentOp() const {
  if (!m_state || m_state->done || m_state->frames.empty())
    return nullptr;
  const auto& frame = m_state->frames.back();
  return frame.pc == frame.block->ops().end() ? nullptr : frame.pc->get();
}

const std::vector<Tensor>& Interpreter::results() const {
  static const std::vector<Tensor> kNone;
  return m_state ? m_state->results : kNone;
}

size_t Interpreter::depth() const { return m_state ? m_state->frames.size() : 0; }

std::vector<const ir::Operation*> Interpreter::frameOwners() const {
  std::vector<const ir::Operation*> owners;
  if (m_state)
    for (size_t i = 1; i < m_state->frames.size(); ++i)
      owners.push_back(m_state->frames[i].owner);
  return owners;
}

bool Interpreter::failed() const { return m_state && m_state->failed; }

bool Interpreter::failedCheck() const { return m_state && m_state->failedCheck; }

const Tensor* Interpreter::lookup(const ir::Value* value) const {
  return m_state ? m_state->lookup(value) : nullptr;
}

void Interpreter::setDeviceContext(const DeviceContext& context) { m_context = context; }

void Interpreter::setHooks(InterpreterHooks hooks) { m_hooks = std::move(hooks); }

void Interpreter::setCommunicatorFactory(CommunicatorFactory factory) {
  m_factory = std::move(factory);
}

void Interpreter::setValueRetention(ValueRetention retention, ValueReleaseHook onRelease) {
  m_retention = retention;
  m_onRelease = std::move(onRelease);
}

size_t Interpreter::liveValueCount() const {
  size_t count = 0;
  if (m_state)
    for (const Frame& frame : m_state->frames)
      count += frame.env.size();
  return count;
}

size_t Interpreter::liveBytes() const {
  if (!m_state)
    return 0;
  std::unordered_map<const void*, size_t> buffers;
  for (const Frame& frame : m_state->frames) {
    for (const auto& [value, tensor] : frame.env)
      buffers[tensor.storageId()] = tensor.storageBytes();
    for (const Tensor& tensor : frame.args)
      buffers[tensor.storageId()] = tensor.storageBytes();
  }
  size_t bytes = 0;
  for (const auto& [id, size] : buffers)
    bytes += size;
  return bytes;
}

void Interpreter::setStepLimit(int64_t limit) {
  m_stepLimit = limit;
  if (m_state)
    m_state->stepLimit = limit;
}

std::optional<std::vector<Tensor>>
Interpreter::run(std::string_view name, std::vector<Tensor> inputs, support::DiagnosticSink& sink) {
  if (!start(name, std::move(inputs), sink))
    return std::nullopt;
  while (step()) {
  }
  if (!finished())
    return std::nullopt;
  return std::move(m_state->results); // `run` hands its results over; `results()` is then empty
}

} // namespace shardscope::exec
