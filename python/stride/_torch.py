"""PyTorch CPU tensors in and out without copies. torch is never imported
here: a tensor can only exist if the caller already imported it."""
import sys


def is_tensor_module_loaded():
    return "torch" in sys.modules


def is_tensor(x):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def to_numpy(t, what="tensor"):
    """The tensor's memory as a NumPy array with the same strides (expanded
    stride-0 views and channels_last included): Tensor.numpy() shares it."""
    if t.requires_grad:
        raise TypeError(f"{what} requires grad; Stride kernels are not "
                        "differentiable (pass tensor.detach() to compute "
                        "without autograd)")
    if t.device.type != "cpu":
        raise TypeError(f"{what} is on device {t.device}; Stride runs on CPU "
                        "tensors")
    if t.is_conj() or t.is_neg():
        t = t.resolve_conj().resolve_neg()
    return t.numpy()


def from_numpy(a):
    """A tensor over the array's memory, with its strides."""
    return sys.modules["torch"].from_numpy(a)
