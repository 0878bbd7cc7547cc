//===- AotMetadata.cpp - What a compiled Stride library declares ----------===//
//
// Format, one record a line, fields separated by single spaces:
//   stride-aot <version>
//   entry <name> <symbol> <packed-symbol>
//   input|output tensor <dtype> <rank> <size>... <stride>...   ('?' = dynamic)
//                [perm <dim>...]
//   input scalar <dtype>
//   layout <policy>                          (entries with dynamic results)
//   node elementwise|matmul|copy|where <ref>... (ref: a<arg>, n<node>, s; a
//                                            trailing '~': converted in the op,
//                                            '*': converted by a copy first)
//   result <ref>
//   distribute <grid>                        (entries compiled for a grid of
//                                            ranks: 4, or 2x2)
//   global input|output <split> tensor|scalar ...   (as input/output: the
//                                            single-process parameter; split:
//                                            per grid axis, comma-separated,
//                                            the dim it splits or -1)
//   end
//
//===----------------------------------------------------------------------===//

#include "stride/Runtime/AotMetadata.h"

#include "stride/Runtime/StridedBuffer.h"
#include "stride/Support/GridShape.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace stride::runtime {

const AotEntry *AotMetadata::find(const std::string &name) const {
  for (const AotEntry &entry : entries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

static std::string formatValue(int64_t value) {
  return value == kAotDynamic ? "?" : std::to_string(value);
}

std::string formatAotShape(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "0-d";
  std::string text;
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") + formatValue(shape[i]);
  return text;
}

std::string formatAotStrides(const std::vector<int64_t> &strides) {
  std::string text = "[";
  for (size_t i = 0; i < strides.size(); ++i)
    text += (i ? ", " : "") + formatValue(strides[i]);
  return text + "]";
}

static void formatParam(std::ostringstream &os, const char *kind,
                        const AotParam &param) {
  os << kind << (param.isTensor ? " tensor " : " scalar ")
     << elementTypeName(param.dtype);
  if (param.isTensor) {
    os << " " << param.shape.size();
    for (int64_t size : param.shape)
      os << " " << formatValue(size);
    for (int64_t stride : param.strides)
      os << " " << formatValue(stride);
    if (!param.perm.empty()) {
      os << " perm";
      for (int64_t dim : param.perm)
        os << " " << dim;
    }
  }
  os << "\n";
}

namespace layout = ::stride::layout;

static std::string formatRef(const layout::LayoutRef &ref) {
  switch (ref.kind) {
  case layout::LayoutRef::Kind::Argument:
    return "a" + std::to_string(ref.index);
  case layout::LayoutRef::Kind::Node:
    return "n" + std::to_string(ref.index);
  case layout::LayoutRef::Kind::Scalar:
    break;
  }
  return "s";
}

static bool parseRef(const std::string &word, layout::LayoutRef &ref) {
  if (word == "s") {
    ref = {layout::LayoutRef::Kind::Scalar, 0};
    return true;
  }
  if (word.size() < 2 || (word[0] != 'a' && word[0] != 'n') ||
      !std::all_of(word.begin() + 1, word.end(),
                   [](char c) { return c >= '0' && c <= '9'; }) ||
      word.size() > 10)
    return false;
  ref.kind = word[0] == 'a' ? layout::LayoutRef::Kind::Argument
                            : layout::LayoutRef::Kind::Node;
  ref.index = std::stoll(word.substr(1));
  return true;
}

static const char *nodeKindName(layout::LayoutNode::Kind kind) {
  switch (kind) {
  case layout::LayoutNode::Kind::Matmul:
    return "matmul";
  case layout::LayoutNode::Kind::Copy:
    return "copy";
  case layout::LayoutNode::Kind::Where:
    return "where";
  case layout::LayoutNode::Kind::Reduce:
    return "reduce";
  case layout::LayoutNode::Kind::Elementwise:
    break;
  }
  return "elementwise";
}

static std::optional<layout::LayoutNode::Kind>
parseNodeKind(const std::string &word) {
  for (auto kind :
       {layout::LayoutNode::Kind::Elementwise, layout::LayoutNode::Kind::Matmul,
        layout::LayoutNode::Kind::Copy, layout::LayoutNode::Kind::Where,
        layout::LayoutNode::Kind::Reduce})
    if (word == nodeKindName(kind))
      return kind;
  return std::nullopt;
}

static void formatGraph(std::ostringstream &os,
                        const layout::LayoutGraph &graph) {
  os << "layout " << layout::policyName(graph.policy) << "\n";
  for (const layout::LayoutNode &node : graph.nodes) {
    os << "node " << nodeKindName(node.kind);
    if (node.kind == layout::LayoutNode::Kind::Reduce) {
      // The reduced dims as one flag per operand dim ('-' for none of a
      // 0-d operand), then keepdims and the result kind.
      os << " ";
      for (bool reduced : node.reduced)
        os << (reduced ? '1' : '0');
      if (node.reduced.empty())
        os << "-";
      os << (node.keepdims ? " keep" : " drop")
         << (node.indexResult ? " index" : " value");
    }
    for (const layout::LayoutRef &ref : node.operands)
      os << " " << formatRef(ref) << (ref.converted ? "~" : "")
         << (ref.copied ? "*" : "");
    os << "\n";
  }
  for (const layout::LayoutRef &ref : graph.results)
    os << "result " << formatRef(ref) << "\n";
}

std::string formatAotMetadata(const AotMetadata &metadata) {
  std::ostringstream os;
  os << "stride-aot " << kAotMetadataVersion << "\n";
  for (const AotEntry &entry : metadata.entries) {
    os << "entry " << entry.name << " " << entry.symbol << " "
       << entry.packedSymbol << "\n";
    for (const AotParam &param : entry.inputs)
      formatParam(os, "input", param);
    for (const AotParam &param : entry.outputs)
      formatParam(os, "output", param);
    if (entry.hasLayoutGraph)
      formatGraph(os, entry.layoutGraph);
    if (entry.ranks > 0) {
      os << "distribute " << formatGridShape(entry.grid) << "\n";
      for (auto [kind, params] :
           {std::pair("global input ", &entry.globalInputs),
            std::pair("global output ", &entry.globalOutputs)})
        for (const AotParam &param : *params) {
          std::string split;
          for (size_t a = 0; a < entry.grid.size(); ++a)
            split += (a ? "," : "") + std::to_string(a < param.split.size()
                                                         ? param.split[a]
                                                         : int64_t(-1));
          formatParam(os, (kind + split).c_str(), param);
        }
    }
  }
  os << "end\n";
  return os.str();
}

static bool parseValue(const std::string &word, int64_t &value) {
  if (word == "?") {
    value = kAotDynamic;
    return true;
  }
  if (word.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  value = std::strtoll(word.c_str(), &end, 10);
  return errno == 0 && end == word.c_str() + word.size();
}

std::string parseAotMetadata(const std::string &text, AotMetadata &metadata) {
  std::istringstream lines(text);
  std::string line;
  int lineNumber = 0;
  bool ended = false;
  auto bad = [&](const std::string &why) {
    return "metadata line " + std::to_string(lineNumber) + ": " + why;
  };
  while (std::getline(lines, line)) {
    ++lineNumber;
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (lineNumber == 1) {
      int version = 0;
      if (kind != "stride-aot" || !(words >> version))
        return bad("not Stride AOT metadata");
      if (version != kAotMetadataVersion)
        return bad("format version " + std::to_string(version) +
                   ", this runtime reads version " +
                   std::to_string(kAotMetadataVersion));
      continue;
    }
    if (kind == "end") {
      ended = true;
      break;
    }
    if (kind == "entry") {
      AotEntry entry;
      if (!(words >> entry.name >> entry.symbol >> entry.packedSymbol))
        return bad("an entry needs a name and two symbols");
      metadata.entries.push_back(entry);
      continue;
    }
    if (kind == "layout" || kind == "node" || kind == "result") {
      if (metadata.entries.empty())
        return bad("a layout graph before any entry");
      AotEntry &entry = metadata.entries.back();
      layout::LayoutGraph &graph = entry.layoutGraph;
      std::string word;
      if (kind == "layout") {
        std::optional<layout::Policy> policy;
        if (!(words >> word) || !(policy = layout::parsePolicy(word)))
          return bad("'layout' needs a policy (torch, numpy or contiguous)");
        if (entry.hasLayoutGraph)
          return bad("a second layout graph for one entry");
        entry.hasLayoutGraph = true;
        graph.policy = *policy;
      } else if (!entry.hasLayoutGraph) {
        return bad("'" + kind + "' before 'layout'");
      } else if (kind == "node") {
        layout::LayoutNode node;
        std::optional<layout::LayoutNode::Kind> nodeKind;
        if (words >> word)
          nodeKind = parseNodeKind(word);
        if (!nodeKind)
          return bad("a node is 'elementwise', 'matmul', 'copy', 'where' or "
                     "'reduce'");
        node.kind = *nodeKind;
        if (node.kind == layout::LayoutNode::Kind::Reduce) {
          std::string flags, keep, result;
          if (!(words >> flags >> keep >> result) || flags.size() > 64 ||
              (flags != "-" &&
               flags.find_first_not_of("01") != std::string::npos) ||
              (keep != "keep" && keep != "drop") ||
              (result != "value" && result != "index"))
            return bad("a reduce node needs its reduced dims (one 0 or 1 per "
                       "dim, '-' for a 0-d operand), 'keep' or 'drop', and "
                       "'value' or 'index'");
          if (flags != "-")
            for (char c : flags)
              node.reduced.push_back(c == '1');
          node.keepdims = keep == "keep";
          node.indexResult = result == "index";
        }
        while (words >> word) {
          layout::LayoutRef ref;
          bool copied = word.size() > 1 && word.back() == '*';
          if (copied)
            word.pop_back();
          bool converted = word.size() > 1 && word.back() == '~';
          if (converted)
            word.pop_back();
          if (!parseRef(word, ref) || node.operands.size() >= 1024)
            return bad("'" + word +
                       "' is not an operand (a<N>, n<N> or s, then '~' if "
                       "converted in the op, '*' if converted by a copy "
                       "first)");
          ref.converted = converted;
          ref.copied = copied;
          node.operands.push_back(ref);
        }
        graph.nodes.push_back(node);
      } else {
        layout::LayoutRef ref;
        if (!(words >> word) || !parseRef(word, ref))
          return bad("a result needs an operand (a<N>, n<N> or s)");
        graph.results.push_back(ref);
      }
      std::string extra;
      if (words >> extra)
        return bad("unexpected '" + extra + "'");
      continue;
    }
    if (kind == "distribute") {
      if (metadata.entries.empty())
        return bad("'distribute' before any entry");
      std::string word, extra;
      std::vector<int64_t> grid;
      if (!(words >> word))
        return bad("'distribute' needs a grid of ranks (4, or 2x2)");
      if (std::string error = parseGridShape(word, grid); !error.empty())
        return bad("'distribute': " + error);
      if (words >> extra)
        return bad("unexpected '" + extra + "'");
      metadata.entries.back().ranks = gridRanks(grid);
      metadata.entries.back().grid = grid;
      continue;
    }
    bool global = kind == "global";
    std::vector<int64_t> split;
    if (global) {
      std::string word;
      if (metadata.entries.empty() || metadata.entries.back().ranks == 0)
        return bad("'global' before 'distribute'");
      if (!(words >> kind) || (kind != "input" && kind != "output") ||
          !(words >> word))
        return bad("'global' needs input or output and a split dim per grid "
                   "axis");
      std::istringstream parts(word);
      std::string part;
      while (std::getline(parts, part, ',')) {
        int64_t dim;
        if (!parseValue(part, dim) || dim < -1)
          return bad("a split dim must be -1 or a dim, got '" + part + "'");
        split.push_back(dim);
      }
      if (split.size() != metadata.entries.back().grid.size())
        return bad("'" + word + "' gives " + std::to_string(split.size()) +
                   " split dims for a grid of " +
                   std::to_string(metadata.entries.back().grid.size()) +
                   " dims");
    }
    if (kind != "input" && kind != "output")
      return bad("unknown record '" + kind + "'");
    if (metadata.entries.empty())
      return bad("a parameter before any entry");
    AotParam param;
    param.split = split;
    std::string form, dtype;
    if (!(words >> form >> dtype) || (form != "tensor" && form != "scalar"))
      return bad("a parameter needs 'tensor' or 'scalar' and a dtype");
    std::optional<ElementType> parsed = parseElementType(dtype);
    if (!parsed)
      return bad("unknown dtype '" + dtype + "'");
    param.dtype = *parsed;
    param.isTensor = form == "tensor";
    if (param.isTensor) {
      int64_t rank = -1;
      std::string word;
      if (!(words >> word) || !parseValue(word, rank) || rank < 0 || rank > 64)
        return bad("a tensor needs a rank between 0 and 64");
      for (int64_t i = 0; i < 2 * rank; ++i) {
        int64_t value;
        if (!(words >> word) || !parseValue(word, value))
          return bad("a tensor of rank " + std::to_string(rank) +
                     " needs " + std::to_string(rank) + " sizes and strides");
        (i < rank ? param.shape : param.strides).push_back(value);
      }
      if (words >> word) {
        if (word != "perm")
          return bad("unexpected '" + word + "'");
        for (int64_t i = 0; i < rank; ++i) {
          int64_t dim;
          if (!(words >> word) || !parseValue(word, dim))
            return bad("'perm' needs " + std::to_string(rank) + " dims");
          param.perm.push_back(dim);
        }
        if (!layout::isPermutation(param.perm, static_cast<size_t>(rank)))
          return bad("the perm is not a permutation of the tensor's dims");
      }
    } else if (kind == "output") {
      return bad("an output must be a tensor");
    }
    std::string extra;
    if (words >> extra)
      return bad("unexpected '" + extra + "'");
    for (int64_t dim : param.split)
      if (dim >= int64_t(param.shape.size()))
        return bad("split dim " + std::to_string(dim) +
                   " of a tensor of rank " +
                   std::to_string(param.shape.size()));
    if (global)
      for (int64_t dim : param.split) {
        if (dim < 0)
          continue;
        int64_t blocks = 1, index = 0;
        const std::vector<int64_t> &grid = metadata.entries.back().grid;
        blockAlong(param.split, grid, std::vector<int64_t>(grid.size(), 0), dim,
                   blocks, index);
        if (param.shape[dim] < 0 || param.shape[dim] % blocks != 0)
          return bad("dim " + std::to_string(dim) + " (size " +
                     std::to_string(param.shape[dim]) +
                     ") does not split into " + std::to_string(blocks) +
                     " equal blocks");
      }
    AotEntry &entry = metadata.entries.back();
    if (global)
      (kind == "input" ? entry.globalInputs : entry.globalOutputs)
          .push_back(param);
    else
      (kind == "input" ? entry.inputs : entry.outputs).push_back(param);
  }
  if (!ended)
    return "the metadata ends without 'end'";
  return "";
}

std::vector<int64_t> aotInputStrides(const AotParam &param,
                                     const std::vector<int64_t> &shape) {
  if (std::none_of(param.strides.begin(), param.strides.end(),
                   [](int64_t s) { return s == kAotDynamic; }))
    return param.strides;
  if (param.perm.size() == shape.size() &&
      layout::isPermutation(param.perm, shape.size()))
    return layout::stridesFromPerm(shape, param.perm);
  return rowMajorStrides(shape);
}

} // namespace stride::runtime
