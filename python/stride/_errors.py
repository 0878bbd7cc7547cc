"""The bottom layer of the package: how a refusal names the user's line.
Every other module may import this one; it imports none of them."""
import os
import sys

import numpy as np

_PACKAGE = os.path.dirname(os.path.abspath(__file__))
_NUMPY = os.path.dirname(os.path.abspath(np.__file__))


def user_line():
    """' (at file:line: source)' for the innermost frame outside Stride and
    NumPy: the user's line that called the unsupported function."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not (path.startswith(_PACKAGE) or path.startswith(_NUMPY)
                or frame.f_code.co_filename.startswith("<__array_function__")):
            import linecache
            source = linecache.getline(frame.f_code.co_filename,
                                       frame.f_lineno).strip()
            where = f"{frame.f_code.co_filename}:{frame.f_lineno}"
            return f" (at {where}: {source})" if source else f" (at {where})"
        frame = frame.f_back
    return ""
