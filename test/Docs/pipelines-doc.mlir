// docs/generated/StridePipelines.md lists exactly the pipelines stride-opt
// registers, with their current options (regenerate with
// `ninja -C build stride-doc` after adding or changing a pipeline).
// RUN: %PYTHON %stride_src_root/utils/gen-pipeline-doc --stride-opt stride-opt \
// RUN:   %stride_src_root/docs/generated/StridePipelines.md --check | FileCheck %s
// CHECK: StridePipelines.md is up to date
