//===- Views.cpp - Shapes, strides and offsets of view operations ---------===//

#include "stride/Layout/Views.h"

#include <algorithm>
#include <sstream>

using namespace stride::layout;

namespace {
constexpr int64_t kBig = std::numeric_limits<int64_t>::max();

int64_t mul(int64_t a, int64_t b) {
  if (isDynamic(a) || isDynamic(b))
    return kDynamic;
  return a * b;
}
int64_t add(int64_t a, int64_t b) {
  if (isDynamic(a) || isDynamic(b))
    return kDynamic;
  return a + b;
}
bool isStatic(const Shape &shape) {
  return std::none_of(shape.begin(), shape.end(), isDynamic);
}
int64_t numel(const Shape &shape) {
  int64_t n = 1;
  for (int64_t s : shape)
    n = mul(n, s);
  return n;
}
std::string list(const std::vector<int64_t> &values) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < values.size(); ++i)
    os << (i ? ", " : "") << values[i];
  os << "]";
  return os.str();
}
ViewResult fail(std::string message) {
  ViewResult r;
  r.error = std::move(message);
  return r;
}
ViewResult ok(Shape shape, Strides strides, int64_t offset = 0,
              bool isView = true) {
  ViewResult r;
  r.view = {std::move(shape), std::move(strides), offset, isView};
  return r;
}
std::string of(const Shape &shape) {
  return "operand of shape " + formatShape(shape);
}
/// Row-major strides with max(size, 1), kDynamic past a dynamic size.
Strides denseStrides(const Shape &shape) {
  Strides strides(shape.size());
  int64_t running = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = running;
    running = isDynamic(shape[i]) ? kDynamic
                                  : mul(running, std::max<int64_t>(shape[i], 1));
  }
  return strides;
}
bool hasDynamic(const Strides &strides) {
  return std::any_of(strides.begin(), strides.end(), isDynamic);
}

/// PyTorch's at::detail::computeStride: the strides of a view of `oldShape`
/// with `oldStrides` as `newShape`, if there is one.
std::optional<Strides> torchComputeStride(const Shape &oldShape,
                                          const Strides &oldStrides,
                                          const Shape &newShape) {
  if (oldShape.empty())
    return Strides(newShape.size(), 1);
  int64_t n = numel(oldShape);
  if (n == 0 && oldShape == newShape)
    return oldStrides;
  Strides newStrides(newShape.size());
  if (n == 0) {
    for (int64_t d = int64_t(newShape.size()) - 1; d >= 0; --d)
      newStrides[d] = d == int64_t(newShape.size()) - 1
                          ? 1
                          : std::max<int64_t>(newShape[d + 1], 1) *
                                newStrides[d + 1];
    return newStrides;
  }
  int64_t viewD = int64_t(newShape.size()) - 1;
  int64_t chunkBase = oldStrides.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t td = int64_t(oldShape.size()) - 1; td >= 0; --td) {
    tensorNumel *= oldShape[td];
    if (td == 0 || (oldShape[td - 1] != 1 &&
                    oldStrides[td - 1] != tensorNumel * chunkBase)) {
      while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
        newStrides[viewD] = viewNumel * chunkBase;
        viewNumel *= newShape[viewD];
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return std::nullopt;
      if (td > 0) {
        chunkBase = oldStrides[td - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  if (viewD != -1)
    return std::nullopt;
  return newStrides;
}

/// NumPy's C-contiguity flag: size-1 dims ignored, an empty array is
/// contiguous.
bool numpyCContiguous(const Shape &shape, const Strides &strides) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return true;
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1)
      continue;
    if (strides[i] != expected)
      return false;
    expected *= shape[i];
  }
  return true;
}

/// NumPy's _attempt_nocopy_reshape in C order (itemsize 1 element).
std::optional<Strides> numpyNoCopyReshape(const Shape &shape,
                                          const Strides &strides,
                                          const Shape &newShape) {
  Shape oldDims;
  Strides oldStrides;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1) {
      oldDims.push_back(shape[i]);
      oldStrides.push_back(strides[i]);
    }
  int64_t newNd = newShape.size(), oldNd = oldDims.size();
  Strides newStrides(newNd, 0);
  int64_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newNd && oi < oldNd) {
    int64_t np = newShape[ni], op = oldDims[oi];
    while (np != op) {
      if (np < op) {
        if (nj >= newNd)
          return std::nullopt;
        np *= newShape[nj++];
      } else {
        if (oj >= oldNd)
          return std::nullopt;
        op *= oldDims[oj++];
      }
    }
    for (int64_t ok = oi; ok < oj - 1; ++ok)
      if (oldStrides[ok] != oldDims[ok + 1] * oldStrides[ok + 1])
        return std::nullopt;
    newStrides[nj - 1] = oldStrides[oj - 1];
    for (int64_t nk = nj - 1; nk > ni; --nk)
      newStrides[nk - 1] = newStrides[nk] * newShape[nk];
    ni = nj++;
    oi = oj++;
  }
  int64_t last = ni >= 1 ? newStrides[ni - 1] : 1;
  for (int64_t nk = ni; nk < newNd; ++nk)
    newStrides[nk] = last;
  return newStrides;
}
} // namespace

SliceRange stride::layout::resolveSlice(const SliceSpec &spec, int64_t length) {
  int64_t step = spec.step.value_or(1);
  int64_t start = spec.start ? *spec.start : (step < 0 ? kBig : 0);
  int64_t stop = spec.stop ? *spec.stop : (step < 0 ? -kBig : kBig);
  auto adjust = [&](int64_t &v) {
    if (v < 0) {
      v += length;
      if (v < 0)
        v = step < 0 ? -1 : 0;
    } else if (v >= length) {
      v = step < 0 ? length - 1 : length;
    }
  };
  adjust(start);
  adjust(stop);
  int64_t count = 0;
  if (step < 0) {
    if (stop < start)
      count = (start - stop - 1) / -step + 1;
  } else if (start < stop) {
    count = (stop - start - 1) / step + 1;
  }
  return {start, step, count};
}

ViewResult stride::layout::permuteView(const Shape &shape,
                                       const Strides &strides,
                                       const std::vector<int64_t> &perm) {
  if (!isPermutation(perm, shape.size()))
    return fail("permutation " + list(perm) + " of an " + of(shape) +
                " is not a permutation of 0.." +
                std::to_string(int64_t(shape.size()) - 1));
  Shape s;
  Strides t;
  for (int64_t p : perm) {
    s.push_back(shape[p]);
    t.push_back(strides[p]);
  }
  return ok(s, t);
}

ViewResult stride::layout::sliceView(Policy policy, const Shape &shape,
                                     const Strides &strides,
                                     const std::vector<SliceSpec> &slices) {
  if (slices.size() > shape.size())
    return fail(std::to_string(slices.size()) + " slices for an " + of(shape) +
                " (at most one per dim)");
  Shape s = shape;
  Strides t = strides;
  int64_t offset = 0;
  for (size_t d = 0; d < slices.size(); ++d) {
    const SliceSpec &spec = slices[d];
    int64_t step = spec.step.value_or(1);
    if (step == 0)
      return fail("slice step of dim " + std::to_string(d) + " of an " +
                  of(shape) + " is 0");
    if (step < 0 && policy == Policy::Torch)
      return fail("slice step " + std::to_string(step) + " of dim " +
                  std::to_string(d) + " of an " + of(shape) +
                  " is negative, which PyTorch does not support (policy "
                  "torch; use policy numpy or a flip)");
    int64_t length = shape[d];
    if (isDynamic(length)) {
      bool whole = !spec.start && !spec.stop && step == 1;
      if (whole)
        continue;
      s[d] = kDynamic;
      t[d] = mul(strides[d], step);
      bool startsAtZero = step > 0 && (!spec.start || *spec.start == 0);
      if (!startsAtZero)
        offset = kDynamic;
      continue;
    }
    if (policy == Policy::Torch) {
      int64_t start = spec.start.value_or(0), stop = spec.stop.value_or(kBig);
      if (start < 0)
        start += length;
      if (stop < 0)
        stop += length;
      start = start < 0 ? 0 : std::min(start, length);
      stop = stop < start ? start : std::min(stop, length);
      offset = add(offset, mul(start, strides[d]));
      s[d] = (stop - start + step - 1) / step;
      t[d] = mul(strides[d], step);
      continue;
    }
    SliceRange range = resolveSlice(spec, length);
    if (range.count <= 0)
      range = {0, 1, 0};
    offset = add(offset, mul(range.start, strides[d]));
    s[d] = range.count;
    t[d] = mul(strides[d], range.step);
  }
  return ok(s, t, offset);
}

ViewResult stride::layout::flipView(Policy policy, const Shape &shape,
                                    const Strides &strides,
                                    const std::vector<int64_t> &dims) {
  std::vector<SliceSpec> slices(shape.size());
  for (int64_t d : dims) {
    if (d < 0 || d >= int64_t(shape.size()))
      return fail("flip dim " + std::to_string(d) + " is out of range for an " +
                  of(shape));
    if (slices[d].step)
      return fail("flip dim " + std::to_string(d) + " is repeated");
    slices[d].step = -1;
  }
  if (policy != Policy::Torch)
    return sliceView(Policy::Numpy, shape, strides, slices);
  // torch.flip copies into empty_like(x, preserve_format).
  if (!isStatic(shape) || hasDynamic(strides))
    return ok(shape, denseStrides(shape), 0, false);
  return ok(shape, copyLikeStrides(Policy::Torch, Operand{shape, strides}), 0,
            false);
}

ViewResult stride::layout::expandView(Policy policy, const Shape &shape,
                                      const Strides &strides,
                                      const Shape &target) {
  int64_t nd = target.size(), td = shape.size();
  if (nd < td)
    return fail("expand of an " + of(shape) + " to " + list(target) +
                ", which has fewer dims");
  Shape s(nd);
  Strides t(nd);
  for (int64_t i = nd - 1; i >= 0; --i) {
    int64_t dim = td - nd + i;
    int64_t size = dim >= 0 ? shape[dim] : 1;
    int64_t stride;
    if (dim >= 0)
      stride = strides[dim];
    else if (policy == Policy::Torch)
      stride = i + 1 < nd ? mul(s[i + 1], t[i + 1]) : 0;
    else
      stride = 0;
    int64_t want = target[i];
    if (want == -1) {
      if (dim < 0)
        return fail("expand of an " + of(shape) + " to " + list(target) +
                    ": -1 in new leading dim " + std::to_string(i));
      want = size;
    } else if (want < 0) {
      return fail("expand of an " + of(shape) + " to " + list(target) +
                  ": size " + std::to_string(want) + " of dim " +
                  std::to_string(i) + " is negative");
    }
    if (isDynamic(size) && !isDynamic(want)) {
      // 1 (stretched, stride 0) or `want` at run time.
      size = want;
      stride = kDynamic;
    } else if (size != want) {
      if (size != 1)
        return fail("expand of an " + of(shape) + " to " + list(target) +
                    ": dim " + std::to_string(dim) + " has size " +
                    std::to_string(size) + ", which is not 1 and not " +
                    std::to_string(want));
      size = want;
      stride = 0;
    }
    // broadcast_to ignores size-1 dims entirely (nditer gives them stride 0).
    if (policy != Policy::Torch && (dim < 0 || shape[dim] == 1))
      stride = 0;
    s[i] = size;
    t[i] = stride;
  }
  return ok(s, t);
}

ViewResult
stride::layout::squeezeView(const Shape &shape, const Strides &strides,
                            const std::optional<std::vector<int64_t>> &dims) {
  std::vector<bool> drop(shape.size(), false);
  if (dims) {
    for (int64_t d : *dims) {
      if (d < 0 || d >= int64_t(shape.size()))
        return fail("squeeze dim " + std::to_string(d) +
                    " is out of range for an " + of(shape));
      if (!isDynamic(shape[d]) && shape[d] != 1)
        return fail("squeeze of dim " + std::to_string(d) + " of an " +
                    of(shape) + ", which has size " +
                    std::to_string(shape[d]) + ", not 1");
      drop[d] = true;
    }
  } else {
    for (size_t d = 0; d < shape.size(); ++d)
      drop[d] = shape[d] == 1;
  }
  Shape s;
  Strides t;
  for (size_t d = 0; d < shape.size(); ++d)
    if (!drop[d]) {
      s.push_back(shape[d]);
      t.push_back(strides[d]);
    }
  return ok(s, t);
}

ViewResult stride::layout::unsqueezeView(Policy policy, const Shape &shape,
                                         const Strides &strides, int64_t dim) {
  int64_t rank = shape.size();
  if (dim < 0 || dim > rank)
    return fail("unsqueeze dim " + std::to_string(dim) +
                " is out of range for an " + of(shape) + " (0.." +
                std::to_string(rank) + ")");
  Shape target = shape;
  target.insert(target.begin() + dim, 1);
  // NumPy's expand_dims is a reshape; with unknown sizes it keeps the
  // existing strides as PyTorch does.
  if (policy != Policy::Torch && isStatic(shape) && !hasDynamic(strides))
    return reshapeView(policy, shape, strides, target);
  Strides t = strides;
  t.insert(t.begin() + dim,
           dim >= rank ? 1 : mul(shape[dim], strides[dim]));
  return ok(target, t);
}

std::optional<Shape> stride::layout::inferReshapeShape(const Shape &shape,
                                                       const Shape &target,
                                                       std::string *error) {
  std::optional<size_t> inferred;
  int64_t product = 1;
  for (size_t i = 0; i < target.size(); ++i) {
    if (target[i] == -1) {
      if (inferred) {
        *error = "reshape of an " + of(shape) + " to " + list(target) +
                 ": only one dimension can be -1";
        return std::nullopt;
      }
      inferred = i;
    } else if (target[i] < 0) {
      *error = "reshape of an " + of(shape) + " to " + list(target) +
               ": size " + std::to_string(target[i]) + " of dim " +
               std::to_string(i) + " is negative";
      return std::nullopt;
    } else {
      product *= target[i];
    }
  }
  int64_t n = numel(shape);
  Shape result = target;
  if (isDynamic(n)) {
    if (inferred)
      result[*inferred] = kDynamic;
    return result;
  }
  if (n == product || (inferred && product > 0 && n % product == 0)) {
    if (inferred) {
      if (product == 0) {
        *error = "cannot reshape an " + of(shape) + " (0 elements) to " +
                 list(target) +
                 ": the size of the -1 dim can be any value and is ambiguous";
        return std::nullopt;
      }
      result[*inferred] = n / product;
    }
    return result;
  }
  *error = "reshape of an " + of(shape) + " (" + std::to_string(n) +
           " elements) to " + list(target) + " changes the number of elements";
  return std::nullopt;
}

ViewResult stride::layout::reshapeView(Policy policy, const Shape &shape,
                                       const Strides &strides,
                                       const Shape &target) {
  // NumPy returns a plain view when the shape does not change.
  if (policy != Policy::Torch && target == shape)
    return ok(shape, strides);
  std::string error;
  std::optional<Shape> newShape = inferReshapeShape(shape, target, &error);
  if (!newShape)
    return fail(error);
  if (!isStatic(shape) || !isStatic(*newShape) || hasDynamic(strides))
    return ok(*newShape, denseStrides(*newShape), 0, /*isView=*/false);
  std::optional<Strides> viewStrides;
  if (policy == Policy::Torch)
    viewStrides = torchComputeStride(shape, strides, *newShape);
  else if (numpyCContiguous(shape, strides))
    viewStrides = denseStrides(*newShape);
  else
    viewStrides = numpyNoCopyReshape(shape, strides, *newShape);
  if (!viewStrides)
    return ok(*newShape, denseStrides(*newShape), 0, /*isView=*/false);
  return ok(*newShape, *viewStrides);
}
