// The math ops of the dialect (trigonometric, hyperbolic, exp/log
// variants, rounding, arctan2, hypot, ...) lower through math-to-nvvm and
// libdevice: ptxas assembles their kernels for sm_90 with no unresolved
// __nv_* function, in f32 and in f64. Without a CUDA toolkit: UNSUPPORTED.
// REQUIRES: ptxas
// RUN: %PYTHON %stride_src_root/utils/check-gpu-binaries --stride-opt stride-opt --ptxas %ptxas %s | FileCheck %s
// RUN: stride-opt %s --stride-gpu-pipeline="format=isa" | FileCheck %s --check-prefix=PTX

// CHECK: ptxas ({{.*}}, -arch=sm_90): {{[1-9][0-9]*}} kernels of 1 programs checked, 0 failures
// The libdevice functions are linked into the kernels, not left external.
// PTX-NOT: .extern .func {{.*}}__nv_
// PTX: gpu.binary @math_f32_kernel
// PTX: gpu.binary @math_f64_kernel

func.func @math_f32(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v0 = stride.sin %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v1 = stride.cos %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v2 = stride.tan %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v3 = stride.arcsin %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v4 = stride.arccos %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v5 = stride.arctan %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v6 = stride.sinh %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v7 = stride.cosh %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v8 = stride.arcsinh %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v9 = stride.arccosh %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v10 = stride.arctanh %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v11 = stride.exp2 %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v12 = stride.expm1 %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v13 = stride.log2 %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v14 = stride.log10 %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v15 = stride.log1p %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v16 = stride.floor %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v17 = stride.ceil %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v18 = stride.trunc %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v19 = stride.rint %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v20 = stride.sign %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v21 = stride.square %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v22 = stride.reciprocal %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v23 = stride.exp %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v24 = stride.log %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v25 = stride.sqrt %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v26 = stride.tanh %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v27 = stride.sigmoid %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v28 = stride.abs %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v29 = stride.neg %x : tensor<4x8xf32> -> tensor<4x8xf32>
  %v30 = stride.arctan2 %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v31 = stride.hypot %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v32 = stride.copysign %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v33 = stride.remainder %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v34 = stride.floor_divide %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v35 = stride.pow %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v36 = stride.maximum %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v37 = stride.minimum %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v38 = stride.isnan %x : tensor<4x8xf32> -> tensor<4x8xi1>
  %v39 = stride.select %v38, %x, %y : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v40 = stride.add %v0, %v1 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v41 = stride.add %v40, %v2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v42 = stride.add %v41, %v3 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v43 = stride.add %v42, %v4 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v44 = stride.add %v43, %v5 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v45 = stride.add %v44, %v6 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v46 = stride.add %v45, %v7 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v47 = stride.add %v46, %v8 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v48 = stride.add %v47, %v9 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v49 = stride.add %v48, %v10 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v50 = stride.add %v49, %v11 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v51 = stride.add %v50, %v12 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v52 = stride.add %v51, %v13 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v53 = stride.add %v52, %v14 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v54 = stride.add %v53, %v15 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v55 = stride.add %v54, %v16 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v56 = stride.add %v55, %v17 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v57 = stride.add %v56, %v18 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v58 = stride.add %v57, %v19 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v59 = stride.add %v58, %v20 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v60 = stride.add %v59, %v21 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v61 = stride.add %v60, %v22 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v62 = stride.add %v61, %v23 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v63 = stride.add %v62, %v24 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v64 = stride.add %v63, %v25 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v65 = stride.add %v64, %v26 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v66 = stride.add %v65, %v27 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v67 = stride.add %v66, %v28 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v68 = stride.add %v67, %v29 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v69 = stride.add %v68, %v30 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v70 = stride.add %v69, %v31 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v71 = stride.add %v70, %v32 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v72 = stride.add %v71, %v33 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v73 = stride.add %v72, %v34 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v74 = stride.add %v73, %v35 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v75 = stride.add %v74, %v36 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v76 = stride.add %v75, %v37 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %v77 = stride.add %v76, %v39 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %v77 : tensor<4x8xf32>
}
func.func @math_f64(%x: tensor<4x8xf64>, %y: tensor<4x8xf64>) -> tensor<4x8xf64> {
  %v0 = stride.sin %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v1 = stride.cos %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v2 = stride.tan %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v3 = stride.arcsin %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v4 = stride.arccos %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v5 = stride.arctan %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v6 = stride.sinh %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v7 = stride.cosh %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v8 = stride.arcsinh %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v9 = stride.arccosh %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v10 = stride.arctanh %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v11 = stride.exp2 %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v12 = stride.expm1 %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v13 = stride.log2 %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v14 = stride.log10 %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v15 = stride.log1p %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v16 = stride.floor %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v17 = stride.ceil %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v18 = stride.trunc %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v19 = stride.rint %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v20 = stride.sign %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v21 = stride.square %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v22 = stride.reciprocal %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v23 = stride.exp %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v24 = stride.log %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v25 = stride.sqrt %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v26 = stride.tanh %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v27 = stride.sigmoid %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v28 = stride.abs %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v29 = stride.neg %x : tensor<4x8xf64> -> tensor<4x8xf64>
  %v30 = stride.arctan2 %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v31 = stride.hypot %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v32 = stride.copysign %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v33 = stride.remainder %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v34 = stride.floor_divide %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v35 = stride.pow %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v36 = stride.maximum %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v37 = stride.minimum %x, %y : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v38 = stride.isnan %x : tensor<4x8xf64> -> tensor<4x8xi1>
  %v39 = stride.select %v38, %x, %y : tensor<4x8xi1>, tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v40 = stride.add %v0, %v1 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v41 = stride.add %v40, %v2 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v42 = stride.add %v41, %v3 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v43 = stride.add %v42, %v4 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v44 = stride.add %v43, %v5 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v45 = stride.add %v44, %v6 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v46 = stride.add %v45, %v7 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v47 = stride.add %v46, %v8 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v48 = stride.add %v47, %v9 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v49 = stride.add %v48, %v10 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v50 = stride.add %v49, %v11 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v51 = stride.add %v50, %v12 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v52 = stride.add %v51, %v13 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v53 = stride.add %v52, %v14 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v54 = stride.add %v53, %v15 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v55 = stride.add %v54, %v16 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v56 = stride.add %v55, %v17 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v57 = stride.add %v56, %v18 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v58 = stride.add %v57, %v19 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v59 = stride.add %v58, %v20 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v60 = stride.add %v59, %v21 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v61 = stride.add %v60, %v22 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v62 = stride.add %v61, %v23 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v63 = stride.add %v62, %v24 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v64 = stride.add %v63, %v25 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v65 = stride.add %v64, %v26 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v66 = stride.add %v65, %v27 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v67 = stride.add %v66, %v28 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v68 = stride.add %v67, %v29 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v69 = stride.add %v68, %v30 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v70 = stride.add %v69, %v31 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v71 = stride.add %v70, %v32 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v72 = stride.add %v71, %v33 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v73 = stride.add %v72, %v34 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v74 = stride.add %v73, %v35 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v75 = stride.add %v74, %v36 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v76 = stride.add %v75, %v37 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  %v77 = stride.add %v76, %v39 : tensor<4x8xf64>, tensor<4x8xf64> -> tensor<4x8xf64>
  return %v77 : tensor<4x8xf64>
}
