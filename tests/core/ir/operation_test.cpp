#include "core/ir/module.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

using namespace shardscope::ir;

namespace {
Type f32x4() {
  std::vector<int64_t> shape{4};
  return Type::tensor(shape, ElementType::F32);
}
} // namespace

TEST(OperationTest, UseListsFollowOperandChanges) {
  Module module;
  Block& body = module.body();
  std::vector<Type> types{f32x4()};
  Operation* a = body.push_back(Operation::create("test.a", {}, types));
  Operation* b = body.push_back(Operation::create("test.b", {}, types));
  std::vector<Value*> operands{a->result(0), a->result(0)};
  Operation* user = body.push_back(Operation::create("test.use", operands, types));
  EXPECT_EQ(a->result(0)->uses().size(), 2u);
  a->result(0)->replaceAllUsesWith(b->result(0));
  EXPECT_FALSE(a->result(0)->hasUses());
  EXPECT_EQ(b->result(0)->uses().size(), 2u);
  EXPECT_EQ(user->operand(1), b->result(0));
  body.erase(user);
  EXPECT_FALSE(b->result(0)->hasUses());
}

TEST(OperationTest, InsertBeforeKeepsOrderAndAttributesStaySorted) {
  Module module;
  Block& body = module.body();
  Operation* last = body.push_back(Operation::create("test.last", {}, {}));
  Operation* first = body.insertBefore(last, Operation::create("test.first", {}, {}));
  ASSERT_EQ(body.ops().size(), 2u);
  EXPECT_EQ(body.ops().front().get(), first);
  first->setAttr("zeta", Attribute::unit());
  first->setAttr("alpha", Attribute::boolean(true));
  first->setAttr("alpha", Attribute::boolean(false));
  ASSERT_EQ(first->attributes().size(), 2u);
  EXPECT_EQ(first->attributes()[0].name, "alpha");
  EXPECT_EQ(first->attr("alpha").str(), "false");
  EXPECT_TRUE(first->removeAttr("zeta"));
  EXPECT_FALSE(first->hasAttr("zeta"));
}

TEST(OperationTest, FunctionArgumentAttributesAreSetAndDropped) {
  Module module;
  std::vector<Type> ins{f32x4(), f32x4()}, outs{f32x4()};
  auto fn = Operation::create("func.func", {}, {});
  fn->setAttr("sym_name", Attribute::string("main"));
  fn->setAttr("function_type", Attribute::type(Type::function(ins, outs)));
  Operation* f = module.body().push_back(std::move(fn));
  func::setArgAttr(*f, 1, "sdy.sharding", Attribute::unit());
  ASSERT_NE(func::argAttrs(*f, 1), nullptr);
  EXPECT_TRUE(func::argAttrs(*f, 1)->get("sdy.sharding"));
  EXPECT_TRUE(func::argAttrs(*f, 0)->entries.empty());
  func::setArgAttr(*f, 1, "sdy.sharding", Attribute());
  EXPECT_FALSE(f->hasAttr("arg_attrs")); // all dictionaries empty: the attribute goes away
  EXPECT_EQ(module.lookupFunction("main"), f);
  EXPECT_EQ(module.lookupFunction("other"), nullptr);
}

namespace {
// Every use list must hold exactly the operand slots that name its value: built here from the
// ops' operands alone, independently of how the lists are maintained.
void expectUseListsMatchOperands(const std::vector<Value*>& values,
                                 const std::vector<Operation*>& users) {
  std::map<const Value*, std::multiset<std::pair<const Operation*, unsigned>>> expected;
  for (const Operation* op : users)
    for (unsigned i = 0; i < op->numOperands(); ++i)
      if (op->operand(i))
        expected[op->operand(i)].insert({op, i});
  for (const Value* value : values) {
    std::multiset<std::pair<const Operation*, unsigned>> actual;
    for (const Use& use : value->uses()) {
      ASSERT_LT(use.index, use.user->numOperands());
      EXPECT_EQ(use.user->operand(use.index), value);
      actual.insert({use.user, use.index});
    }
    EXPECT_EQ(actual, expected[value]);
  }
}
} // namespace

TEST(OperationTest, UseListsStayConsistentUnderRandomEdits) {
  Module module;
  Block& body = module.body();
  std::vector<Type> types{f32x4()};
  std::vector<Value*> values;
  for (int v = 0; v < 6; ++v)
    values.push_back(body.push_back(Operation::create("test.def", {}, types))->result(0));
  std::vector<Operation*> users;
  std::mt19937 rng(20);
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  auto randomOperands = [&] {
    std::vector<Value*> operands(1 + pick(4));
    for (Value*& operand : operands)
      operand = pick(5) == 0 ? nullptr : values[pick(values.size())];
    return operands;
  };
  for (int step = 0; step < 3000; ++step) {
    switch (pick(6)) {
    case 0: { // a new user
      std::vector<Value*> operands = randomOperands();
      users.push_back(body.push_back(Operation::create("test.use", operands, types)));
      break;
    }
    case 1: // rewire one operand (sometimes to null, sometimes to the same value)
      if (!users.empty()) {
        Operation* op = users[pick(users.size())];
        op->setOperand(static_cast<unsigned>(pick(op->numOperands())),
                       pick(6) == 0 ? nullptr : values[pick(values.size())]);
      }
      break;
    case 2: // replace all operands, changing their number
      if (!users.empty()) {
        std::vector<Value*> operands = randomOperands();
        users[pick(users.size())]->setOperands(operands);
      }
      break;
    case 3: // erase a user
      if (!users.empty()) {
        size_t k = pick(users.size());
        body.erase(users[k]);
        users.erase(users.begin() + static_cast<std::ptrdiff_t>(k));
      }
      break;
    case 4: { // move every use of one value to another
      Value* from = values[pick(values.size())];
      from->replaceAllUsesWith(values[pick(values.size())]);
      break;
    }
    case 5: // a clone of a user adds uses of the same values
      if (!users.empty()) {
        Operation::ValueMapping mapping;
        users.push_back(body.push_back(users[pick(users.size())]->clone(mapping)));
      }
      break;
    }
    if (step % 50 == 0 || step > 2950)
      expectUseListsMatchOperands(values, users);
  }
  // Dropping every reference empties every list.
  for (Operation* op : users)
    op->dropAllReferences();
  for (const Value* value : values)
    EXPECT_FALSE(value->hasUses());
}

TEST(OperationTest, ManyUsesOfOneValueAreRemovedInAnyOrder) {
  Module module;
  Block& body = module.body();
  std::vector<Type> types{f32x4()};
  Value* shared = body.push_back(Operation::create("test.def", {}, types))->result(0);
  std::vector<Operation*> users;
  for (int i = 0; i < 1000; ++i) {
    std::vector<Value*> operands{shared, shared};
    users.push_back(body.push_back(Operation::create("test.use", operands, types)));
  }
  EXPECT_EQ(shared->uses().size(), 2000u);
  std::mt19937 rng(7);
  std::shuffle(users.begin(), users.end(), rng);
  for (size_t i = 0; i < users.size(); ++i) {
    body.erase(users[i]);
    EXPECT_EQ(shared->uses().size(), 2 * (users.size() - i - 1));
  }
}

TEST(OperationTest, OpNamesAreInterned) {
  auto a = Operation::create("test.interned_name", {}, {});
  std::string name = "test.interned_name";
  auto b = Operation::create(name, {}, {});
  name.assign("changed");
  EXPECT_EQ(b->name(), "test.interned_name"); // no view of the caller's string
  EXPECT_EQ(a->name().data(), b->name().data());
}
