//===- IRBuilder.h - Stride functions built from Python ---------*- C++ -*-===//

#ifndef STRIDE_PYTHON_IRBUILDER_H
#define STRIDE_PYTHON_IRBUILDER_H

#include <pybind11/pybind11.h>

namespace stride::python {

/// Adds `IRBuilder`, which builds a Stride function op by op, to `m`.
void bindIRBuilder(pybind11::module_ &m);

} // namespace stride::python

#endif // STRIDE_PYTHON_IRBUILDER_H
