"""The examples in docs/python.md run as written."""
import os
import re

import pytest

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


@pytest.mark.skipif(not os.path.exists(DOC), reason="docs/python.md not found")
def test_python_md_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", open(DOC).read(), re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, DOC, "exec"), {})
    printed = capsys.readouterr().out
    assert "(4, 48, 16)" in printed and "(5, 4, 2, 2)" in printed
    assert "[2.5 3.  3.5]" in printed
