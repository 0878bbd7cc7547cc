//===- GuardedParse.cpp - Parsing around MLIR 22 parser crashes -----------===//

#include "stride/Support/GuardedParse.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

using namespace mlir;

size_t mlir::stride::findUnparsableLinalgList(StringRef text) {
  for (StringRef name : {"permutation", "dimensions"}) {
    for (size_t at = text.find(name); at != StringRef::npos;
         at = text.find(name, at + 1)) {
      // The custom form follows `outs(...)`; in an attribute dictionary
      // (after `{` or `,`) the list is an ordinary attribute.
      StringRef before = text.take_front(at).rtrim();
      if (before.empty() || before.back() != ')')
        continue;
      StringRef rest = text.drop_front(at + name.size()).ltrim();
      if (!rest.consume_front("="))
        continue; // the parser reports the missing '=' itself
      rest = rest.ltrim();
      size_t listAt = text.size() - rest.size();
      if (!rest.consume_front("["))
        return listAt;
      rest = rest.ltrim();
      if (rest.consume_front("]"))
        continue;
      while (true) {
        rest.consume_front("-");
        size_t digits = rest.find_first_not_of("0123456789");
        if (digits == 0 || digits == StringRef::npos)
          return listAt;
        rest = rest.drop_front(digits).ltrim();
        if (rest.consume_front("]"))
          break;
        if (!rest.consume_front(","))
          return listAt;
        rest = rest.ltrim();
      }
    }
  }
  return StringRef::npos;
}

OwningOpRef<ModuleOp>
mlir::stride::parseStrideSource(llvm::SourceMgr &sourceMgr,
                                MLIRContext &context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  size_t at = findUnparsableLinalgList(text);
  if (at == StringRef::npos)
    return parseSourceFile<ModuleOp>(sourceMgr, &context);
  emitUnparsableLinalgList(sourceMgr, at, context);
  return nullptr;
}

void mlir::stride::emitUnparsableLinalgList(llvm::SourceMgr &sourceMgr,
                                            size_t at, MLIRContext &context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  StringRef text = buffer->getBuffer();
  auto [line, column] =
      sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(text.data() + at));
  StringRef name = text.take_front(at).rtrim().drop_back().rtrim();
  name = name.substr(name.find_last_not_of("abcdefghijklmnopqrstuvwxyz") + 1);
  emitError(FileLineColLoc::get(&context, buffer->getBufferIdentifier(), line,
                                column))
      << "expected a list of integers after '" << name << " ='";
}
