//===- AotMetadataTest.cpp - The layout metadata of compiled libraries ----===//
//
// The text comes from any file a user gives stride-exec, so besides the round
// trip every malformed form must give an error naming its line, never a
// crash or a half-read entry that looks valid.
//
//===----------------------------------------------------------------------===//

#include "stride/Runtime/AotMetadata.h"

#include <gtest/gtest.h>

using namespace stride::runtime;
using ::stride::ElementType;

namespace {

/// An entry named `name`, with the symbols stride-compile gives it.
AotEntry namedEntry(const std::string &name) {
  AotEntry entry;
  entry.name = name;
  entry.symbol = "stride_" + name;
  entry.packedSymbol = "stride_" + name + "_packed";
  return entry;
}

AotParam tensorParam(ElementType dtype, std::vector<int64_t> shape,
                     std::vector<int64_t> strides) {
  AotParam param;
  param.isTensor = true;
  param.dtype = dtype;
  param.shape = std::move(shape);
  param.strides = std::move(strides);
  return param;
}

AotMetadata sample() {
  AotMetadata metadata;
  AotEntry entry = namedEntry("demo");
  AotParam tensor =
      tensorParam(ElementType::F32, {4, kAotDynamic, 3}, {-2, 24, 0});
  AotParam scalar;
  scalar.dtype = ElementType::I1;
  entry.inputs = {tensor, scalar, tensorParam(ElementType::I64, {}, {})};
  AotParam out = tensor;
  out.shape = {4, 2, 3};
  out.strides = {1, 12, 4};
  entry.outputs = {out};
  metadata.entries = {entry, entry};
  metadata.entries[1].name = "other";
  return metadata;
}

std::string parseError(const std::string &text) {
  AotMetadata metadata;
  return parseAotMetadata(text, metadata);
}

} // namespace

TEST(AotMetadata, RoundTrip) {
  AotMetadata written = sample();
  std::string text = formatAotMetadata(written);
  EXPECT_NE(text.find("input tensor f32 3 4 ? 3 -2 24 0\n"), std::string::npos)
      << text;
  AotMetadata read;
  ASSERT_EQ(parseAotMetadata(text, read), "");
  ASSERT_EQ(read.entries.size(), 2u);
  const AotEntry *entry = read.find("other");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->symbol, "stride_demo");
  EXPECT_EQ(entry->packedSymbol, "stride_demo_packed");
  ASSERT_EQ(entry->inputs.size(), 3u);
  EXPECT_EQ(entry->inputs[0].shape, written.entries[0].inputs[0].shape);
  EXPECT_EQ(entry->inputs[0].strides, written.entries[0].inputs[0].strides);
  EXPECT_FALSE(entry->inputs[1].isTensor);
  EXPECT_EQ(entry->inputs[1].dtype, ElementType::I1);
  EXPECT_TRUE(entry->inputs[2].isTensor);
  EXPECT_TRUE(entry->inputs[2].shape.empty());
  ASSERT_EQ(entry->outputs.size(), 1u);
  EXPECT_EQ(entry->outputs[0].strides, (std::vector<int64_t>{1, 12, 4}));
  EXPECT_EQ(read.find("absent"), nullptr);
}

TEST(AotMetadata, MalformedTextIsAnError) {
  const std::string head = "stride-aot 4\nentry f s p\n";
  // Each text and the error it must give.
  const std::pair<std::string, std::string> cases[] = {
      {"", "the metadata ends without 'end'"},
      {"ELF\n", "metadata line 1: not Stride AOT metadata"},
      {"stride-aot 1\nend\n",
       "metadata line 1: format version 1, this runtime reads version 4"},
      {"stride-aot 4\nentry f\nend\n",
       "metadata line 2: an entry needs a name and two symbols"},
      {"stride-aot 4\ninput scalar f32\nend\n",
       "metadata line 2: a parameter before any entry"},
      {head + "input tensor f16 1 4 1\nend\n",
       "metadata line 3: unknown dtype 'f16'"},
      {head + "input matrix f32\nend\n",
       "metadata line 3: a parameter needs 'tensor' or 'scalar' and a dtype"},
      {head + "input tensor f32 -1\nend\n",
       "metadata line 3: a tensor needs a rank between 0 and 64"},
      {head + "input tensor f32 99999999999999999999\nend\n",
       "metadata line 3: a tensor needs a rank between 0 and 64"},
      {head + "input tensor f32 2 4 3 1\nend\n",
       "metadata line 3: a tensor of rank 2 needs 2 sizes and strides"},
      {head + "input tensor f32 1 4x 1\nend\n",
       "metadata line 3: a tensor of rank 1 needs 1 sizes and strides"},
      {head + "input tensor f32 1 4 1 7\nend\n",
       "metadata line 3: unexpected '7'"},
      {head + "output scalar f32\nend\n",
       "metadata line 3: an output must be a tensor"},
      {head + "results tensor f32 0\nend\n",
       "metadata line 3: unknown record 'results'"},
      {head + "input tensor f32 2 ? ? 1 ? perm 1\nend\n",
       "metadata line 3: 'perm' needs 2 dims"},
      {head + "input tensor f32 2 ? ? 1 ? perm 1 1\nend\n",
       "metadata line 3: the perm is not a permutation of the tensor's dims"},
      {head + "input tensor f32 1 ? 1 order 0\nend\n",
       "metadata line 3: unexpected 'order'"},
      {"stride-aot 4\nlayout torch\nend\n",
       "metadata line 2: a layout graph before any entry"},
      {head + "layout fortran\nend\n",
       "metadata line 3: 'layout' needs a policy (torch, numpy or contiguous)"},
      {head + "layout torch\nlayout numpy\nend\n",
       "metadata line 4: a second layout graph for one entry"},
      {head + "node elementwise a0\nend\n",
       "metadata line 3: 'node' before 'layout'"},
      {head + "layout torch\nnode add a0\nend\n",
       "metadata line 4: a node is 'elementwise', 'matmul', 'copy', 'where' "
       "or 'reduce'"},
      {head + "layout torch\nnode reduce 102 keep value a0\nend\n",
       "metadata line 4: a reduce node needs its reduced dims (one 0 or 1 per "
       "dim, '-' for a 0-d operand), 'keep' or 'drop', and 'value' or "
       "'index'"},
      {head + "layout torch\nnode reduce 10 keep\nend\n",
       "metadata line 4: a reduce node needs its reduced dims (one 0 or 1 per "
       "dim, '-' for a 0-d operand), 'keep' or 'drop', and 'value' or "
       "'index'"},
      {head + "layout torch\nnode matmul a0 x1\nend\n",
       "metadata line 4: 'x1' is not an operand (a<N>, n<N> or s, then '~' if "
       "converted in the op, '*' if converted by a copy first)"},
      {head + "layout torch\nnode matmul a0 a99999999999\nend\n",
       "metadata line 4: 'a99999999999' is not an operand (a<N>, n<N> or s, "
       "then '~' if converted in the op, '*' if converted by a copy first)"},
      {head + "layout torch\nnode copy ~\nend\n",
       "metadata line 4: '~' is not an operand (a<N>, n<N> or s, then '~' if "
       "converted in the op, '*' if converted by a copy first)"},
      {head + "layout torch\nresult\nend\n",
       "metadata line 4: a result needs an operand (a<N>, n<N> or s)"},
      {head + "layout torch\nresult n0 n1\nend\n",
       "metadata line 4: unexpected 'n1'"},
      {head + "input scalar f32\n", "the metadata ends without 'end'"},
  };
  for (const auto &[text, error] : cases)
    EXPECT_EQ(parseError(text), error) << text;
}

TEST(AotMetadata, InputStrides) {
  AotParam declared;
  declared.isTensor = true;
  declared.shape = {kAotDynamic, 3};
  declared.strides = {1, 5};
  EXPECT_EQ(aotInputStrides(declared, {7, 3}), (std::vector<int64_t>{1, 5}));
  declared.strides = {kAotDynamic, 1};
  EXPECT_EQ(aotInputStrides(declared, {7, 3}), (std::vector<int64_t>{3, 1}));
  // Dense in a declared dim order, sizes entering as max(size, 1).
  declared.strides = {1, kAotDynamic};
  declared.perm = {1, 0};
  EXPECT_EQ(aotInputStrides(declared, {7, 3}), (std::vector<int64_t>{1, 7}));
  EXPECT_EQ(aotInputStrides(declared, {0, 3}), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(formatAotShape({4, kAotDynamic}), "4x?");
  EXPECT_EQ(formatAotShape({}), "0-d");
  EXPECT_EQ(formatAotStrides({kAotDynamic, -1}), "[?, -1]");
}

namespace {

namespace layout = ::stride::layout;

/// @f(%a: tensor<?x?xf32, perm [1, 0]>, %b: tensor<?xf32>, %s: f32):
/// n0 = a + b, n1 = s * n0; results n1 and b as is.
AotEntry dynamicEntry(layout::Policy policy) {
  AotEntry entry = namedEntry("f");
  AotParam a = tensorParam(ElementType::F32, {kAotDynamic, kAotDynamic},
                           {1, kAotDynamic});
  a.perm = {1, 0};
  AotParam b = tensorParam(ElementType::F32, {kAotDynamic}, {1});
  entry.inputs = {a, b, AotParam()};
  entry.outputs = {tensorParam(ElementType::F32, {kAotDynamic, kAotDynamic},
                               {kAotDynamic, kAotDynamic}),
                   b};
  entry.hasLayoutGraph = true;
  entry.layoutGraph.policy = policy;
  using Kind = layout::LayoutRef::Kind;
  entry.layoutGraph.nodes = {
      {layout::LayoutNode::Kind::Elementwise, {{Kind::Argument, 0}, {Kind::Argument, 1}}},
      {layout::LayoutNode::Kind::Elementwise, {{Kind::Argument, 2}, {Kind::Node, 0}}}};
  entry.layoutGraph.results = {{Kind::Node, 1}, {Kind::Argument, 1}};
  return entry;
}

/// Writes `entry` alone, expects `part` in the text, and reads the text
/// back into `read`, which must write the same text.
void roundTrip(const AotEntry &entry, const std::string &part,
               AotMetadata &read) {
  AotMetadata written;
  written.entries = {entry};
  std::string text = formatAotMetadata(written);
  EXPECT_NE(text.find(part), std::string::npos) << text;
  ASSERT_EQ(parseAotMetadata(text, read), "");
  EXPECT_EQ(formatAotMetadata(read), text);
}

} // namespace

TEST(AotMetadata, LayoutGraphRoundTrip) {
  AotMetadata read;
  ASSERT_NO_FATAL_FAILURE(
      roundTrip(dynamicEntry(layout::Policy::Numpy),
                "input tensor f32 2 ? ? 1 ? perm 1 0\n"
                "input tensor f32 1 ? 1\ninput scalar f32\n"
                "output tensor f32 2 ? ? ? ?\noutput tensor f32 1 ? 1\n"
                "layout numpy\nnode elementwise a0 a1\n"
                "node elementwise a2 n0\nresult n1\nresult a1\nend\n",
                read));
  ASSERT_EQ(read.entries.size(), 1u);
  EXPECT_EQ(read.entries[0].inputs[0].perm, (std::vector<int64_t>{1, 0}));
}

TEST(AotMetadata, CopyNodesAndConvertedOperands) {
  // Under torch a cast of a column-major 4x1 keeps its strides exactly
  // (copyLikeStrides: empty_like) where an elementwise op gives the size-1
  // dim its inner neighbour's extent; a converted operand ('~') round-trips.
  AotEntry entry = dynamicEntry(layout::Policy::Torch);
  entry.outputs = {entry.outputs[0], entry.outputs[0]};
  entry.layoutGraph.nodes = {
      {layout::LayoutNode::Kind::Copy, {{layout::LayoutRef::Kind::Argument, 0}}},
      {layout::LayoutNode::Kind::Elementwise,
       {{layout::LayoutRef::Kind::Argument, 0, /*converted=*/true},
        {layout::LayoutRef::Kind::Node, 0}}}};
  entry.layoutGraph.results = {{layout::LayoutRef::Kind::Node, 0},
                               {layout::LayoutRef::Kind::Node, 1}};
  AotMetadata read;
  ASSERT_NO_FATAL_FAILURE(
      roundTrip(entry, "node copy a0\nnode elementwise a0~ n0\n", read));
  std::vector<std::vector<int64_t>> shapes, strides;
  ASSERT_EQ(aotResultLayouts(read.entries[0], {{4, 1}, {4}, {}},
                             {{1, 4}, {1}, {}}, shapes, strides),
            "");
  EXPECT_EQ(strides[0], (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(strides[1],
            layout::computeOutputStrides(layout::Policy::Torch,
                                         {{{4, 1}, {1, 4}}, {{4, 1}, {1, 4}}},
                                         {4, 1}));
  EXPECT_NE(strides[1], strides[0]);
}

TEST(AotMetadata, WhereNodesRoundTrip) {
  // A select is a 'where' node: under numpy it skips the ufuncs' trivial
  // loop, so two F-contiguous 3x2x1 operands give (1, 3, 1), not (1, 3, 6).
  AotEntry entry = dynamicEntry(layout::Policy::Numpy);
  AotParam any3d =
      tensorParam(ElementType::F32, {kAotDynamic, kAotDynamic, kAotDynamic},
                  {kAotDynamic, kAotDynamic, kAotDynamic});
  entry.inputs = {any3d, any3d};
  entry.outputs = {any3d};
  using Kind = layout::LayoutRef::Kind;
  entry.layoutGraph.nodes = {{layout::LayoutNode::Kind::Where,
                              {{Kind::Argument, 0}, {Kind::Argument, 1}}}};
  entry.layoutGraph.results = {{Kind::Node, 0}};
  AotMetadata read;
  ASSERT_NO_FATAL_FAILURE(roundTrip(entry, "node where a0 a1\n", read));
  std::vector<std::vector<int64_t>> shapes, strides;
  ASSERT_EQ(aotResultLayouts(read.entries[0], {{3, 2, 1}, {3, 2, 1}},
                             {{1, 3, 1}, {1, 3, 6}}, shapes, strides),
            "");
  EXPECT_EQ(strides[0], (std::vector<int64_t>{1, 3, 1}));
}

TEST(AotMetadata, ReduceNodesRoundTrip) {
  // A sum over dim 0 of the column-major argument, kept, and an argmax of
  // every dim of the other: their flags, keepdims and index kind survive the
  // text, and the layouts are reduceOutputStrides'.
  AotEntry entry = dynamicEntry(layout::Policy::Numpy);
  entry.inputs.pop_back();
  entry.outputs = {entry.outputs[0], tensorParam(ElementType::I64, {}, {})};
  using Kind = layout::LayoutRef::Kind;
  layout::LayoutNode sum{layout::LayoutNode::Kind::Reduce,
                         {{Kind::Argument, 0}}};
  sum.reduced = {true, false};
  sum.keepdims = true;
  layout::LayoutNode argmax{layout::LayoutNode::Kind::Reduce,
                            {{Kind::Argument, 1}}};
  argmax.reduced = {true};
  argmax.indexResult = true;
  entry.layoutGraph.nodes = {sum, argmax};
  entry.layoutGraph.results = {{Kind::Node, 0}, {Kind::Node, 1}};
  AotMetadata read;
  ASSERT_NO_FATAL_FAILURE(roundTrip(
      entry, "node reduce 10 keep value a0\nnode reduce 1 drop index a1\n",
      read));
  const layout::LayoutNode &back = read.entries[0].layoutGraph.nodes[0];
  EXPECT_EQ(back.reduced, sum.reduced);
  EXPECT_TRUE(back.keepdims);
  EXPECT_TRUE(read.entries[0].layoutGraph.nodes[1].indexResult);
  std::vector<std::vector<int64_t>> shapes, strides;
  ASSERT_EQ(aotResultLayouts(read.entries[0], {{3, 4}, {7}}, {{1, 3}, {1}},
                             shapes, strides),
            "");
  EXPECT_EQ(shapes[0], (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(strides[0],
            layout::reduceOutputStrides(layout::Policy::Numpy, {{3, 4}, {1, 3}},
                                        sum.reduced, true, false));
  EXPECT_EQ(shapes[1], (std::vector<int64_t>{}));
}

TEST(AotMetadata, OperandsConvertedByACopyFirst) {
  // Under torch an operand PyTorch converts with .to() ('*') is laid out by
  // copyLikeStrides before the op decides: the broadcast column a (4, 1)
  // with strides (0, 1) becomes dense first, and then it, not b (strides
  // (1, 4)), orders the size-1 dim.
  AotEntry entry = dynamicEntry(layout::Policy::Torch);
  entry.inputs[0].strides = {kAotDynamic, kAotDynamic};
  entry.inputs[0].perm.clear();
  entry.inputs = {entry.inputs[0], entry.inputs[0]};
  entry.outputs = {entry.outputs[0], entry.outputs[0]};
  entry.layoutGraph.nodes = {
      {layout::LayoutNode::Kind::Elementwise,
       {{layout::LayoutRef::Kind::Argument, 0, false, /*copied=*/true},
        {layout::LayoutRef::Kind::Argument, 1}}},
      {layout::LayoutNode::Kind::Elementwise,
       {{layout::LayoutRef::Kind::Argument, 0},
        {layout::LayoutRef::Kind::Argument, 1}}}};
  entry.layoutGraph.results = {{layout::LayoutRef::Kind::Node, 0},
                               {layout::LayoutRef::Kind::Node, 1}};
  AotMetadata read;
  ASSERT_NO_FATAL_FAILURE(roundTrip(entry, "node elementwise a0* a1\n", read));
  std::vector<std::vector<int64_t>> shapes, strides;
  layout::Operand a{{4, 1}, {0, 1}}, b{{4, 1}, {1, 4}};
  ASSERT_EQ(aotResultLayouts(read.entries[0], {a.shape, b.shape},
                             {a.strides, b.strides}, shapes, strides),
            "");
  layout::Operand copied{a.shape,
                         layout::copyLikeStrides(layout::Policy::Torch, a)};
  EXPECT_EQ(strides[0], layout::computeOutputStrides(layout::Policy::Torch,
                                                     {copied, b}, a.shape));
  EXPECT_EQ(strides[1], (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(strides[0], (std::vector<int64_t>{1, 1}));
}

TEST(AotMetadata, ResultLayoutsFollowTheInputs) {
  AotEntry entry = dynamicEntry(layout::Policy::Torch);
  std::vector<std::vector<int64_t>> shapes, strides;
  // A column-major 3x4 plus a row: torch keeps the column-major order.
  ASSERT_EQ(aotResultLayouts(entry, {{3, 4}, {4}, {}}, {{1, 3}, {1}, {}},
                             shapes, strides),
            "");
  EXPECT_EQ(shapes, (std::vector<std::vector<int64_t>>{{3, 4}, {4}}));
  EXPECT_EQ(strides, (std::vector<std::vector<int64_t>>{{1, 3}, {1}}));
  // Size-1 dims: what the policy's rule gives for those operands.
  ASSERT_EQ(aotResultLayouts(entry, {{1, 4}, {4}, {}}, {{1, 1}, {1}, {}},
                             shapes, strides),
            "");
  EXPECT_EQ(strides[0],
            layout::computeOutputStrides(layout::Policy::Torch,
                                         {{{1, 4}, {1, 1}}, {{4}, {1}}, {}},
                                         {1, 4}));
  // numpy gives an empty result all-zero strides.
  entry.layoutGraph.policy = layout::Policy::Numpy;
  ASSERT_EQ(aotResultLayouts(entry, {{0, 4}, {4}, {}}, {{1, 1}, {1}, {}},
                             shapes, strides),
            "");
  EXPECT_EQ(strides[0], (std::vector<int64_t>{0, 0}));

  EXPECT_EQ(aotResultLayouts(entry, {{3, 4}, {5}, {}}, {{1, 3}, {1}, {}},
                             shapes, strides)
                .find("the inputs' shapes do not fit @f: node #0 "
                      "(elementwise): cannot broadcast"),
            0u);
  EXPECT_EQ(aotResultLayouts(entry, {{3, 4}, {4}}, {{1, 3}, {1}}, shapes,
                             strides),
            "@f takes 3 arguments, got 2 shapes and 2 strides");
  EXPECT_EQ(aotResultLayouts(entry, {{3}, {4}, {}}, {{1}, {1}, {}}, shapes,
                             strides),
            "argument #0 of @f has rank 2 but 1 sizes and 1 strides were given");
  EXPECT_EQ(aotResultLayouts(entry, {{3, 4}, {4}, {}}, {{3, 1}, {1}, {}},
                             shapes, strides),
            "argument #0 of @f needs strides [1, ?] but has [3, 1]");
  EXPECT_EQ(aotResultLayouts(entry, {{-3, 4}, {4}, {}}, {{1, 1}, {1}, {}},
                             shapes, strides),
            "argument #0 of @f is given a negative size");
  // A layout the kernel's static output strides cannot take.
  entry.outputs[0].strides = {kAotDynamic, 1};
  EXPECT_EQ(aotResultLayouts(entry, {{3, 4}, {4}, {}}, {{1, 3}, {1}, {}},
                             shapes, strides),
            "result #0 of @f gets shape 3x4 and strides [1, 3] for these "
            "inputs, which the kernel compiled for shape ?x? and strides "
            "[?, 1] cannot write");
  entry.hasLayoutGraph = false;
  EXPECT_EQ(aotResultLayouts(entry, {{3, 4}, {4}, {}}, {{1, 3}, {1}, {}},
                             shapes, strides),
            "the result layouts of @f depend on the input sizes but the "
            "library has no layout graph for it");
}

extern "C" int stride_aot_result_layout(const char *, const char *,
                                        const int64_t *const *,
                                        const int64_t *const *,
                                        int64_t *const *, int64_t *const *,
                                        char *, size_t);

TEST(AotMetadata, CQueryFunction) {
  AotMetadata metadata;
  metadata.entries = {dynamicEntry(layout::Policy::Torch)};
  std::string text = formatAotMetadata(metadata);
  int64_t aSizes[2] = {3, 4}, bSizes[1] = {4};
  const int64_t *inSizes[3] = {aSizes, bSizes, nullptr};
  int64_t out0Sizes[2], out0Strides[2], out1Sizes[1], out1Strides[1];
  int64_t *outSizes[2] = {out0Sizes, out1Sizes};
  int64_t *outStrides[2] = {out0Strides, out1Strides};
  char error[200] = "unset";
  // No strides: the declared layouts (a is dense column-major).
  ASSERT_EQ(stride_aot_result_layout(text.c_str(), "f", inSizes, nullptr,
                                     outSizes, outStrides, error,
                                     sizeof error),
            0)
      << error;
  EXPECT_STREQ(error, "");
  EXPECT_EQ(std::vector<int64_t>(out0Strides, out0Strides + 2),
            (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(out1Sizes[0], 4);
  EXPECT_EQ(stride_aot_result_layout(text.c_str(), "g", inSizes, nullptr,
                                     outSizes, outStrides, error, 8),
            1);
  EXPECT_STREQ(error, "no entr"); // cut to the buffer
  EXPECT_EQ(stride_aot_result_layout("junk", "f", inSizes, nullptr, outSizes,
                                     outStrides, error, sizeof error),
            1);
  EXPECT_STREQ(error, "metadata line 1: not Stride AOT metadata");
  const int64_t *missing[3] = {aSizes, nullptr, nullptr};
  EXPECT_EQ(stride_aot_result_layout(text.c_str(), "f", missing, nullptr,
                                     outSizes, outStrides, error,
                                     sizeof error),
            1);
  EXPECT_STREQ(error, "the sizes of argument #1 of @f are missing");
}

TEST(AotMetadata, DistributedEntryRoundTrip) {
  AotMetadata written = sample();
  AotEntry &entry = written.entries[0];
  entry.ranks = 4;
  entry.grid = {4};
  AotParam x = entry.outputs[0];
  x.shape = {16, 2, 3};
  x.strides = {6, 3, 1};
  x.split = {0};
  AotParam s;
  s.dtype = ElementType::I1;
  AotParam whole = x;
  whole.split = {-1};
  entry.globalInputs = {x, s, whole};
  entry.globalOutputs = {x};
  std::string text = formatAotMetadata(written);
  EXPECT_NE(text.find("distribute 4\nglobal input 0 tensor f32 3 16 2 3 6 3 1\n"
                      "global input -1 scalar i1\n"),
            std::string::npos)
      << text;
  AotMetadata read;
  ASSERT_EQ(parseAotMetadata(text, read), "");
  const AotEntry *demo = read.find("demo");
  ASSERT_NE(demo, nullptr);
  EXPECT_EQ(demo->ranks, 4);
  ASSERT_EQ(demo->globalInputs.size(), 3u);
  EXPECT_EQ(demo->grid, (std::vector<int64_t>{4}));
  EXPECT_EQ(demo->globalInputs[0].split, (std::vector<int64_t>{0}));
  EXPECT_EQ(demo->globalInputs[0].shape, (std::vector<int64_t>{16, 2, 3}));
  EXPECT_FALSE(demo->globalInputs[1].isTensor);
  EXPECT_EQ(demo->globalInputs[2].split, (std::vector<int64_t>{-1}));
  EXPECT_FALSE(demo->globalInputs[2].isSplit());
  ASSERT_EQ(demo->globalOutputs.size(), 1u);
  EXPECT_EQ(read.find("other")->ranks, 0);
  EXPECT_TRUE(read.find("other")->globalInputs.empty());
}

// A 2x2 grid: each axis names the dim it splits, comma-separated.
TEST(AotMetadata, GridEntryRoundTrip) {
  AotMetadata written = sample();
  AotEntry &entry = written.entries[0];
  entry.ranks = 4;
  entry.grid = {2, 2};
  AotParam x = entry.outputs[0];
  x.shape = {4, 6};
  x.strides = {6, 1};
  x.split = {1, 0};
  AotParam rows = x;
  rows.split = {0, 0};
  entry.globalInputs = {x, rows};
  entry.globalOutputs = {x};
  std::string text = formatAotMetadata(written);
  EXPECT_NE(text.find("distribute 2x2\nglobal input 1,0 tensor f32 2 4 6 6 1\n"
                      "global input 0,0 tensor"),
            std::string::npos)
      << text;
  AotMetadata read;
  ASSERT_EQ(parseAotMetadata(text, read), "");
  const AotEntry *demo = read.find("demo");
  ASSERT_NE(demo, nullptr);
  EXPECT_EQ(demo->ranks, 4);
  EXPECT_EQ(demo->grid, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(demo->globalInputs[0].split, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(demo->globalInputs[1].split, (std::vector<int64_t>{0, 0}));
}

TEST(AotMetadata, MalformedDistributionIsAnError) {
  auto parseError = [](const std::string &text) {
    AotMetadata metadata;
    return parseAotMetadata(text, metadata);
  };
  const std::string head = "stride-aot 4\nentry f s p\n";
  EXPECT_EQ(parseError(head + "global input 0 scalar f32\nend\n"),
            "metadata line 3: 'global' before 'distribute'");
  EXPECT_EQ(parseError(head + "distribute 0\nend\n"),
            "metadata line 3: 'distribute': grid '0': every size must be at "
            "least 1");
  EXPECT_EQ(parseError(head + "distribute 2y2\nend\n"),
            "metadata line 3: 'distribute': grid '2y2': expected sizes "
            "separated by 'x', like 4 or 2x2");
  EXPECT_EQ(
      parseError(head + "distribute 2\nglobal input -2 scalar f32\nend\n"),
      "metadata line 4: a split dim must be -1 or a dim, got '-2'");
  EXPECT_EQ(parseError(head +
                       "distribute 2x2\nglobal input 0 tensor f32 1 4 1\n"
                       "end\n"),
            "metadata line 4: '0' gives 1 split dims for a grid of 2 dims");
  EXPECT_EQ(parseError(head + "distribute 2x2\nglobal input 0,0 tensor f32 1 "
                              "6 1\nend\n"),
            "metadata line 4: dim 0 (size 6) does not split into 4 equal "
            "blocks");
  EXPECT_EQ(parseError(head + "distribute 2\nglobal output 2 tensor f32 1 4 1\n"
                              "end\n"),
            "metadata line 4: split dim 2 of a tensor of rank 1");
}
