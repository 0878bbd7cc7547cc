# -*- Python -*-
# The GoogleTest executables as a lit suite, so that check-stride runs them
# with the lit tests.
import lit.formats

config.name = "STRIDE-Unit"
config.suffixes = []
config.test_exec_root = config.stride_unittests_dir
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
