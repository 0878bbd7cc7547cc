//===- IRBuilder.cpp - Stride functions built from Python through MLIR ----===//
//
// The Python front end (stride/_codegen.py) builds a traced expression's
// function here, op by op, with MLIR's builders and the ops' registered
// names and attributes, and gets back the function's text (the kernel cache
// key and what the compiler parses). Python holds values as integer handles.
//
//===----------------------------------------------------------------------===//

#include "IRBuilder.h"

#include "stride/Dialect/Stride/IR/StrideAttrs.h"
#include "stride/Dialect/Stride/IR/StrideDialect.h"
#include "stride/Dialect/Stride/IR/StrideOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace mlir;
using namespace mlir::stride;

namespace {

/// A function under construction. Types come from Python as an element
/// type's name (a scalar) or (element, shape, strides): shape None is
/// unranked, a None size is dynamic, strides give a #stride.layout.
class PyIRBuilder {
public:
  explicit PyIRBuilder(const std::string &entry)
      : builder(&context), loc(UnknownLoc::get(&context)) {
    context.loadDialect<StrideDialect, func::FuncDialect, scf::SCFDialect,
                        tensor::TensorDialect, arith::ArithDialect>();
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
    func = func::FuncOp::create(builder, loc, entry,
                                builder.getFunctionType({}, {}));
    builder.setInsertionPointToEnd(func.addEntryBlock());
  }

  int argument(const py::object &spec) {
    Type type = typeOf(spec);
    if (failed(func.insertArgument(func.getNumArguments(), type, {}, loc)))
      throw py::value_error("cannot add an argument");
    return handle(func.getArgument(func.getNumArguments() - 1));
  }

  /// Op `name` on `operands` with results of `types` and `attrs` (Python
  /// values: a list of ints is a DenseI64ArrayAttr, an int an i64 attribute,
  /// True a unit attribute, a string the op's enum case).
  std::vector<int> op(const std::string &name, const std::vector<int> &operands,
                      const py::list &types, const py::dict &attrs) {
    OperationState state(loc, name);
    if (!state.name.isRegistered())
      throw py::value_error("no registered op '" + name + "'");
    for (int v : operands)
      state.addOperands(valueOf(v));
    for (py::handle spec : types)
      state.addTypes(typeOf(py::reinterpret_borrow<py::object>(spec)));
    for (auto [key, value] : attrs)
      state.addAttribute(
          key.cast<std::string>(),
          attributeOf(name, key.cast<std::string>(),
                      py::reinterpret_borrow<py::object>(value)));
    Operation *op = builder.create(state);
    std::vector<int> results;
    for (Value result : op->getResults())
      results.push_back(handle(result));
    return results;
  }

  /// An arith.constant of a float `type` (f16, f32, f64, ...): `value`
  /// rounded to it, at the start of the function, so that it dominates
  /// every use (also when first asked for inside a loop body).
  int constant(double value, const py::object &spec) {
    auto type = dyn_cast<FloatType>(typeOf(spec));
    if (!type)
      throw py::type_error("constant: a float type is needed");
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&func.getBody().front());
    bool lost = false;
    llvm::APFloat rounded(value);
    rounded.convert(type.getFloatSemantics(),
                    llvm::APFloat::rmNearestTiesToEven, &lost);
    return handle(arith::ConstantOp::create(builder, loc, type,
                                            FloatAttr::get(type, rounded)));
  }

  /// A copy of `value` as `type`: a stride.broadcast whose body yields its
  /// input, into `outs` when given.
  int copy(int value, const py::object &spec, std::optional<int> outs) {
    SmallVector<Value> inits;
    if (outs)
      inits.push_back(valueOf(*outs));
    return handle(
        buildCopyOp(builder, loc, valueOf(value), typeOf(spec), inits));
  }

  /// `value` as `type`: itself if it has that type, else a tensor.cast.
  int castTo(int value, const py::object &spec) {
    return handle(castValue(valueOf(value), typeOf(spec)));
  }

  /// tensor.extract_slice of `base` (static offsets, sizes, strides).
  int extractSlice(int base, const std::vector<int64_t> &offsets,
                   const std::vector<int64_t> &sizes,
                   const std::vector<int64_t> &strides) {
    Value source = valueOf(base);
    auto type = tensor::ExtractSliceOp::inferResultType(
        cast<RankedTensorType>(source.getType()), sizes);
    return handle(tensor::ExtractSliceOp::create(
        builder, loc, type, source, ValueRange{}, ValueRange{}, ValueRange{},
        offsets, sizes, strides));
  }

  /// tensor.insert_slice of `value` (cast to the slice's static type) into
  /// `base` (of a static type).
  int insertSlice(int value, int base, const std::vector<int64_t> &offsets,
                  const std::vector<int64_t> &sizes,
                  const std::vector<int64_t> &strides) {
    Value dest = valueOf(base);
    auto destType = dyn_cast<RankedTensorType>(dest.getType());
    if (!destType || !destType.hasStaticShape())
      throw py::value_error("insert_slice needs a base of a static type");
    Value source =
        castValue(valueOf(value),
                  RankedTensorType::get(sizes, destType.getElementType()));
    return handle(tensor::InsertSliceOp::create(
        builder, loc, source, dest, ValueRange{}, ValueRange{}, ValueRange{},
        offsets, sizes, strides));
  }

  /// base[..., i, ...] at `axis` (rank-reduced), `index` a 0-d i64 tensor
  /// computed in the kernel (a stride.fori_loop body's i + 1): a
  /// tensor.extract_slice with a dynamic offset. `base` has a static type;
  /// the caller proved the index in bounds (and non-negative) when it
  /// traced it.
  int extractAt(int base, int64_t axis, int index) {
    auto type = staticType(base, "extract_at");
    SmallVector<OpFoldResult> offsets, sizes, strides;
    rowOf(type, axis, index, offsets, sizes, strides);
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    return handle(tensor::ExtractSliceOp::create(
        builder, loc, RankedTensorType::get(shape, type.getElementType()),
        valueOf(base), offsets, sizes, strides));
  }

  /// `base` with base[..., i, ...] = value at `axis` (value cast to the
  /// rank-reduced row type), as extractAt.
  int insertAt(int value, int base, int64_t axis, int index) {
    auto type = staticType(base, "insert_at");
    SmallVector<OpFoldResult> offsets, sizes, strides;
    rowOf(type, axis, index, offsets, sizes, strides);
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + axis);
    Value row = castValue(valueOf(value),
                          RankedTensorType::get(shape, type.getElementType()));
    return handle(tensor::InsertSliceOp::create(
        builder, loc, row, valueOf(base), offsets, sizes, strides));
  }

  /// Opens `scf.for lower..upper step 1` carrying `inits` cast to `specs`;
  /// the insertion point moves into its body. Returns the index as a 0-d
  /// i64 tensor, then the carried values.
  std::vector<int> beginLoop(int64_t lower, int64_t upper,
                             const std::vector<int> &inits,
                             const py::list &specs) {
    if (inits.size() != specs.size())
      throw py::value_error("begin_loop: " + std::to_string(inits.size()) +
                            " initial values but " +
                            std::to_string(specs.size()) + " carried types");
    SmallVector<Value> values;
    for (auto [init, spec] : llvm::zip_equal(inits, specs))
      values.push_back(castValue(
          valueOf(init), typeOf(py::reinterpret_borrow<py::object>(spec))));
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(builder, loc, v).getResult();
    };
    Value lb = index(lower), ub = index(upper), step = index(1);
    auto loop = scf::ForOp::create(builder, loc, lb, ub, step, values);
    loops.push_back({loop, builder.saveInsertionPoint()});
    builder.setInsertionPointToStart(loop.getBody());
    Value iv = arith::IndexCastOp::create(builder, loc, builder.getI64Type(),
                                          loop.getInductionVar());
    std::vector<int> out = {handle(tensor::FromElementsOp::create(
        builder, loc, RankedTensorType::get({}, builder.getI64Type()),
        ValueRange{iv}))};
    for (Value arg : loop.getRegionIterArgs())
      out.push_back(handle(arg));
    return out;
  }

  /// Closes the innermost loop, yielding `yields` (cast to its carried
  /// types); returns its results.
  std::vector<int> endLoop(const std::vector<int> &yields) {
    if (loops.empty())
      throw py::value_error("no loop is open");
    auto [loop, after] = loops.pop_back_val();
    SmallVector<Value> values;
    for (auto [v, type] : llvm::zip_equal(yields, loop.getResultTypes()))
      values.push_back(castValue(valueOf(v), type));
    scf::YieldOp::create(builder, loc, values);
    builder.restoreInsertionPoint(after);
    std::vector<int> results;
    for (Value result : loop.getResults())
      results.push_back(handle(result));
    return results;
  }

  /// Returns `results` cast to `specs` and gives the function's text.
  std::string finish(const std::vector<int> &results, const py::list &specs) {
    if (!loops.empty())
      throw py::value_error("a loop is still open");
    SmallVector<Value> values;
    for (auto [v, spec] : llvm::zip_equal(results, specs))
      values.push_back(castValue(
          valueOf(v), typeOf(py::reinterpret_borrow<py::object>(spec))));
    func::ReturnOp::create(builder, loc, values);
    func.setFunctionType(builder.getFunctionType(
        func.getArgumentTypes(), ValueRange(values).getTypes()));
    std::string text;
    llvm::raw_string_ostream os(text);
    func.print(os);
    os << "\n";
    return text;
  }

private:
  int handle(Value v) {
    values.push_back(v);
    return static_cast<int>(values.size() - 1);
  }

  Value valueOf(int v) {
    if (v < 0 || static_cast<size_t>(v) >= values.size())
      throw py::index_error("no value #" + std::to_string(v));
    return values[v];
  }

  Value castValue(Value v, Type type) {
    if (v.getType() == type)
      return v;
    return tensor::CastOp::create(builder, loc, type, v);
  }

  Type elementOf(const std::string &name) {
    Type type = parseType(name, &context);
    if (!type || !type.isIntOrFloat())
      throw py::value_error("'" + name + "' is not an element type");
    return type;
  }

  Type typeOf(const py::object &spec) {
    if (py::isinstance<py::str>(spec))
      return elementOf(spec.cast<std::string>()); // a scalar
    auto [element, shape, strides] =
        spec.cast<std::tuple<std::string, py::object, py::object>>();
    Type elem = elementOf(element);
    if (shape.is_none()) {
      if (!strides.is_none())
        throw py::value_error("an unranked type has no strides");
      return UnrankedTensorType::get(elem);
    }
    SmallVector<int64_t> sizes;
    for (py::handle size : shape.cast<py::sequence>())
      sizes.push_back(size.is_none() ? ShapedType::kDynamic
                                     : size.cast<int64_t>());
    if (strides.is_none())
      return RankedTensorType::get(sizes, elem);
    auto layout =
        LayoutAttr::get(&context, strides.cast<std::vector<int64_t>>());
    return RankedTensorType::get(sizes, elem, layout);
  }

  Attribute attributeOf(const std::string &op, const std::string &key,
                        const py::object &value) {
    if (py::isinstance<py::bool_>(value)) {
      if (!value.cast<bool>())
        throw py::value_error("attribute '" + key + "' of '" + op +
                              "': give a unit attribute as True or leave it "
                              "out");
      return builder.getUnitAttr();
    }
    if (py::isinstance<py::int_>(value))
      return builder.getI64IntegerAttr(value.cast<int64_t>());
    if (py::isinstance<py::str>(value)) {
      std::optional<CmpPredicate> predicate =
          symbolizeCmpPredicate(value.cast<std::string>());
      if (!predicate)
        throw py::value_error("attribute '" + key + "' of '" + op + "': '" +
                              value.cast<std::string>() +
                              "' is not a comparison");
      return CmpPredicateAttr::get(&context, *predicate);
    }
    return builder.getDenseI64ArrayAttr(value.cast<std::vector<int64_t>>());
  }

  MLIRContext context;
  OpBuilder builder;
  Location loc;
  RankedTensorType staticType(int base, const char *what) {
    auto type = dyn_cast<RankedTensorType>(valueOf(base).getType());
    if (!type || !type.hasStaticShape())
      throw py::value_error(std::string(what) +
                            " needs a base of a static type");
    return type;
  }

  /// The offsets, sizes and strides of row `index` (a 0-d i64 tensor) of
  /// `type` along `axis`.
  void rowOf(RankedTensorType type, int64_t axis, int index,
             SmallVectorImpl<OpFoldResult> &offsets,
             SmallVectorImpl<OpFoldResult> &sizes,
             SmallVectorImpl<OpFoldResult> &strides) {
    if (axis < 0 || axis >= type.getRank())
      throw py::value_error("axis " + std::to_string(axis) +
                            " is out of range for the base's rank");
    Value i =
        tensor::ExtractOp::create(builder, loc, valueOf(index), ValueRange{});
    Value at =
        arith::IndexCastOp::create(builder, loc, builder.getIndexType(), i);
    for (auto [d, n] : llvm::enumerate(type.getShape())) {
      offsets.push_back(int64_t(d) == axis ? OpFoldResult(at)
                                           : builder.getIndexAttr(0));
      sizes.push_back(builder.getIndexAttr(int64_t(d) == axis ? 1 : n));
      strides.push_back(builder.getIndexAttr(1));
    }
  }

  OwningOpRef<ModuleOp> module;
  func::FuncOp func;
  std::vector<Value> values;
  SmallVector<std::pair<scf::ForOp, OpBuilder::InsertPoint>> loops;
};

} // namespace

void ::stride::python::bindIRBuilder(py::module_ &m) {
  py::class_<PyIRBuilder>(m, "IRBuilder",
                          "Builds one Stride function op by op (see "
                          "stride/_codegen.py); values are integer handles.")
      .def(py::init<const std::string &>(), py::arg("entry"))
      .def("argument", &PyIRBuilder::argument, py::arg("type"))
      .def("constant", &PyIRBuilder::constant, py::arg("value"),
           py::arg("type"))
      .def("op", &PyIRBuilder::op, py::arg("name"), py::arg("operands"),
           py::arg("types"), py::arg("attrs") = py::dict())
      .def("copy", &PyIRBuilder::copy, py::arg("value"), py::arg("type"),
           py::arg("outs") = py::none())
      .def("cast", &PyIRBuilder::castTo, py::arg("value"), py::arg("type"))
      .def("extract_slice", &PyIRBuilder::extractSlice, py::arg("base"),
           py::arg("offsets"), py::arg("sizes"), py::arg("strides"))
      .def("insert_slice", &PyIRBuilder::insertSlice, py::arg("value"),
           py::arg("base"), py::arg("offsets"), py::arg("sizes"),
           py::arg("strides"))
      .def("extract_at", &PyIRBuilder::extractAt, py::arg("base"),
           py::arg("axis"), py::arg("index"))
      .def("insert_at", &PyIRBuilder::insertAt, py::arg("value"),
           py::arg("base"), py::arg("axis"), py::arg("index"))
      .def("begin_loop", &PyIRBuilder::beginLoop, py::arg("lower"),
           py::arg("upper"), py::arg("inits"), py::arg("types"))
      .def("end_loop", &PyIRBuilder::endLoop, py::arg("yields"))
      .def("finish", &PyIRBuilder::finish, py::arg("results"),
           py::arg("types"));
}
