// stride-lsp-server answers a scripted editor session: Stride's attribute
// and op verifier diagnostics come back for an opened file (one per
// `// -----` chunk), hover shows a Stride op, and go-to-definition on a use
// finds the value's definition.
// RUN: %PYTHON %S/Inputs/lsp_client.py stride-lsp-server %S/Inputs/diagnostics.mlir \
// RUN:   --hover 2:10 --definition 3:10 | FileCheck %s

// CHECK: {"initialize": {"hoverProvider": true, "definitionProvider": true}}
// CHECK-NEXT: {"diagnostic": {"line": 8, "severity": 1, "message": "layout #stride.layout<strides = [1]> has rank 1 but the tensor has rank 2"}}
// CHECK-NEXT: {"diagnostic": {"line": 15, "severity": 1, "message": "'stride.add' op cannot broadcast operand 0 of shape 2x3 and operand 1 of shape 4: {{.*}}"}}
// CHECK-NEXT: {"hover": {"contents": {"kind": "markdown", "value": "\"stride.mul\"{{.*}}#stride.layout<strides = [1, 4]>{{.*}}"}, "range": {"end": {"character": 17, "line": 2}, "start": {"character": 7, "line": 2}}}}
// CHECK-NEXT: {"definition": [{"range": {"end": {"character": 4, "line": 2}, "start": {"character": 2, "line": 2}}, "uri": "file://{{.*}}/Inputs/diagnostics.mlir"}]}
// CHECK-NEXT: {"exit": 0}
