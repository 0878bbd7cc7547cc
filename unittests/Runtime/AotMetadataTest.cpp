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

namespace {

AotMetadata sample() {
  AotMetadata metadata;
  AotEntry entry;
  entry.name = "demo";
  entry.symbol = "stride_demo";
  entry.packedSymbol = "stride_demo_packed";
  AotParam tensor;
  tensor.isTensor = true;
  tensor.dtype = DType::F32;
  tensor.shape = {4, kAotDynamic, 3};
  tensor.strides = {-2, 24, 0};
  AotParam scalar;
  scalar.dtype = DType::I1;
  AotParam zeroD;
  zeroD.isTensor = true;
  zeroD.dtype = DType::I64;
  entry.inputs = {tensor, scalar, zeroD};
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
  EXPECT_EQ(entry->inputs[1].dtype, DType::I1);
  EXPECT_TRUE(entry->inputs[2].isTensor);
  EXPECT_TRUE(entry->inputs[2].shape.empty());
  ASSERT_EQ(entry->outputs.size(), 1u);
  EXPECT_EQ(entry->outputs[0].strides, (std::vector<int64_t>{1, 12, 4}));
  EXPECT_EQ(read.find("absent"), nullptr);
}

TEST(AotMetadata, MalformedTextIsAnError) {
  const std::string head = "stride-aot 1\nentry f s p\n";
  EXPECT_EQ(parseError(""), "the metadata ends without 'end'");
  EXPECT_EQ(parseError("ELF\n"), "metadata line 1: not Stride AOT metadata");
  EXPECT_EQ(parseError("stride-aot 2\nend\n"),
            "metadata line 1: format version 2, this runtime reads version 1");
  EXPECT_EQ(parseError("stride-aot 1\nentry f\nend\n"),
            "metadata line 2: an entry needs a name and two symbols");
  EXPECT_EQ(parseError("stride-aot 1\ninput scalar f32\nend\n"),
            "metadata line 2: a parameter before any entry");
  EXPECT_EQ(parseError(head + "input tensor f16 1 4 1\nend\n"),
            "metadata line 3: unknown dtype 'f16'");
  EXPECT_EQ(parseError(head + "input matrix f32\nend\n"),
            "metadata line 3: a parameter needs 'tensor' or 'scalar' and a dtype");
  EXPECT_EQ(parseError(head + "input tensor f32 -1\nend\n"),
            "metadata line 3: a tensor needs a rank between 0 and 64");
  EXPECT_EQ(parseError(head + "input tensor f32 99999999999999999999\nend\n"),
            "metadata line 3: a tensor needs a rank between 0 and 64");
  EXPECT_EQ(parseError(head + "input tensor f32 2 4 3 1\nend\n"),
            "metadata line 3: a tensor of rank 2 needs 2 sizes and strides");
  EXPECT_EQ(parseError(head + "input tensor f32 1 4x 1\nend\n"),
            "metadata line 3: a tensor of rank 1 needs 1 sizes and strides");
  EXPECT_EQ(parseError(head + "input tensor f32 1 4 1 7\nend\n"),
            "metadata line 3: unexpected '7'");
  EXPECT_EQ(parseError(head + "output scalar f32\nend\n"),
            "metadata line 3: an output must be a tensor");
  EXPECT_EQ(parseError(head + "result tensor f32 0\nend\n"),
            "metadata line 3: unknown record 'result'");
  EXPECT_EQ(parseError(head + "input scalar f32\n"),
            "the metadata ends without 'end'");
}

TEST(AotMetadata, InputStrides) {
  AotParam declared;
  declared.isTensor = true;
  declared.shape = {kAotDynamic, 3};
  declared.strides = {1, 5};
  EXPECT_EQ(aotInputStrides(declared, {7, 3}), (std::vector<int64_t>{1, 5}));
  declared.strides = {kAotDynamic, 1};
  EXPECT_EQ(aotInputStrides(declared, {7, 3}), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(formatAotShape({4, kAotDynamic}), "4x?");
  EXPECT_EQ(formatAotShape({}), "0-d");
  EXPECT_EQ(formatAotStrides({kAotDynamic, -1}), "[?, -1]");
}
