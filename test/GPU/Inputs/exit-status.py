"""Runs a command, passes its output through and prints its exit status
(lit's internal shell has no $?)."""
import subprocess
import sys

result = subprocess.run(sys.argv[1:], stderr=subprocess.STDOUT)
print(f"exit status {result.returncode}", flush=True)
