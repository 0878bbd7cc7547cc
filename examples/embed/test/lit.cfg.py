# -*- Python -*-
import os

import lit.formats

config.name = "STRIDE-EMBED"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.embed_obj_root, "test")
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]

# This project's tools first, then the installed Stride's, then FileCheck.
config.environment["PATH"] = os.pathsep.join(
    [os.path.join(config.embed_obj_root, "bin"), config.stride_tools_dir,
     config.llvm_tools_dir, config.environment.get("PATH", "")])
