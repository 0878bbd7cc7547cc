// Malformed .npy headers reach the stride-run user as "bad header (what is
// wrong): the header text". unittests/Runtime/NpyTest.cpp checks the other
// problems; these are the ones it does not spell out. Each file is a valid
// version 1.0 prelude followed by the header given here (no data: the header
// is rejected before the data is looked at).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %PYTHON -c "import sys, struct; [open(sys.argv[1] + '/' + n + '.npy', 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(h)) + h.encode()) for n, h in zip(sys.argv[2::2], sys.argv[3::2])]" %t \
// RUN:   quoted-key "{1: 2}" \
// RUN:   colon "{'descr' '<f4'}" \
// RUN:   dup-order "{'descr': '<f4', 'fortran_order': False, 'fortran_order': False, 'shape': (2,)}" \
// RUN:   dup-shape "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (2,)}" \
// RUN:   no-descr "{'fortran_order': False, 'shape': (2,)}" \
// RUN:   no-shape "{'descr': '<f4', 'fortran_order': False}" \
// RUN:   open-list "{'descr': [('a', '<f4')" \
// RUN:   descr-string "{'descr': 4, 'fortran_order': False, 'shape': (2,)}" \
// RUN:   shape-paren "{'descr': '<f4', 'fortran_order': False, 'shape': [2]}" \
// RUN:   shape-dim "{'descr': '<f4', 'fortran_order': False, 'shape': (x,)}"
// RUN: not stride-run %s --input %t/quoted-key.npy 2>&1 | FileCheck %s --check-prefix=QUOTED-KEY
// RUN: not stride-run %s --input %t/colon.npy 2>&1 | FileCheck %s --check-prefix=COLON
// RUN: not stride-run %s --input %t/dup-order.npy 2>&1 | FileCheck %s --check-prefix=DUP-ORDER
// RUN: not stride-run %s --input %t/dup-shape.npy 2>&1 | FileCheck %s --check-prefix=DUP-SHAPE
// RUN: not stride-run %s --input %t/no-descr.npy 2>&1 | FileCheck %s --check-prefix=NO-DESCR
// RUN: not stride-run %s --input %t/no-shape.npy 2>&1 | FileCheck %s --check-prefix=NO-SHAPE
// RUN: not stride-run %s --input %t/open-list.npy 2>&1 | FileCheck %s --check-prefix=OPEN-LIST
// RUN: not stride-run %s --input %t/descr-string.npy 2>&1 | FileCheck %s --check-prefix=DESCR-STRING
// RUN: not stride-run %s --input %t/shape-paren.npy 2>&1 | FileCheck %s --check-prefix=SHAPE-PAREN
// RUN: not stride-run %s --input %t/shape-dim.npy 2>&1 | FileCheck %s --check-prefix=SHAPE-DIM

// Keys are quoted strings followed by ':'.
// QUOTED-KEY: stride-run: error: argument #0 of @one: {{.*}}quoted-key.npy: bad header (expected a quoted key or '}'): {1: 2}
// COLON: stride-run: error: argument #0 of @one: {{.*}}colon.npy: bad header (expected ':' after 'descr'): {'descr' '<f4'}

// Each of the three keys appears exactly once.
// DUP-ORDER: stride-run: error: argument #0 of @one: {{.*}}dup-order.npy: bad header (duplicate key 'fortran_order'): {'descr': '<f4', 'fortran_order': False, 'fortran_order': False, 'shape': (2,)}
// DUP-SHAPE: stride-run: error: argument #0 of @one: {{.*}}dup-shape.npy: bad header (duplicate key 'shape'): {'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': (2,)}
// NO-DESCR: stride-run: error: argument #0 of @one: {{.*}}no-descr.npy: bad header (missing key 'descr'): {'fortran_order': False, 'shape': (2,)}
// NO-SHAPE: stride-run: error: argument #0 of @one: {{.*}}no-shape.npy: bad header (missing key 'shape'): {'descr': '<f4', 'fortran_order': False}

// 'descr' is a quoted dtype string or a (structured, unsupported) list.
// OPEN-LIST: stride-run: error: argument #0 of @one: {{.*}}open-list.npy: bad header (unterminated list in 'descr'): {'descr': [('a', '<f4')
// DESCR-STRING: stride-run: error: argument #0 of @one: {{.*}}descr-string.npy: bad header (expected a quoted string for 'descr'): {'descr': 4, 'fortran_order': False, 'shape': (2,)}

// 'shape' is a tuple of non-negative integers.
// SHAPE-PAREN: stride-run: error: argument #0 of @one: {{.*}}shape-paren.npy: bad header (expected '(' for 'shape'): {'descr': '<f4', 'fortran_order': False, 'shape': [2]}
// SHAPE-DIM: stride-run: error: argument #0 of @one: {{.*}}shape-dim.npy: bad header (expected a dimension or ')' in 'shape'): {'descr': '<f4', 'fortran_order': False, 'shape': (x,)}

func.func @one(%a: tensor<2xf32>) -> tensor<*xf32> {
  %0 = stride.neg %a : tensor<2xf32> -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
