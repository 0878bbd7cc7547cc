"""Stride programs more than one benchmark runs."""


def chain(n):
    """@chain(x, y) = (x * y + 1) * x - y on n x n float32 inputs: four
    elementwise ops that fuse into one kernel."""
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @chain(%x: {t}, %y: {t}) -> tensor<*xf32> {{
  %one = arith.constant 1.0 : f32
  %0 = stride.mul %x, %y : {t}, {t} -> tensor<*xf32>
  %1 = stride.add %0, %one : tensor<*xf32>, f32 -> tensor<*xf32>
  %2 = stride.mul %1, %x : tensor<*xf32>, {t} -> tensor<*xf32>
  %3 = stride.sub %2, %y : tensor<*xf32>, {t} -> tensor<*xf32>
  return %3 : tensor<*xf32>
}}
"""
