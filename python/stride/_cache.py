"""A bounded LRU cache of compiled kernels. Each Kernel owns a JIT engine
(machine code and its memory), so evicting one frees it; an unbounded cache
would leak memory in programs that see many shapes.

Below it, for @stride.jit(cache=True) and stride.compile(..., cache=True), a
disk cache keeps kernels across processes as the shared libraries
stride-compile writes (lib/AOT/DiskCache.cpp), in $STRIDE_CACHE_DIR or
~/.cache/stride, named by a hash of everything that decides the code."""
import collections
import hashlib
import os
import threading

CacheInfo = collections.namedtuple(
    "CacheInfo",
    "hits misses compile_seconds size limit disk_hits disk_writes disk_failures",
    defaults=(0, 0, 0))

DEFAULT_LIMIT = 256


class KernelCache:
    def __init__(self, limit):
        self._lock = threading.Lock()
        self._kernels = collections.OrderedDict()
        self._limit = _check_limit(limit)
        self.hits = self.misses = 0
        self.compile_seconds = 0.0
        self.disk = collections.Counter()
        self.disk_note = ""
        # Called when kernels are dropped, so that fast paths holding
        # kernels (materialize's) drop them too and memory is freed.
        self.on_drop = []

    def count_hit(self):
        with self._lock:
            self.hits += 1

    def _dropped(self):
        for fn in self.on_drop:
            fn()

    def get(self, key, compile_fn):
        with self._lock:
            kernel = self._kernels.get(key)
            if kernel is not None:
                self._kernels.move_to_end(key)
                self.hits += 1
                return kernel
            self.misses += 1
        # Compile outside the lock: a failing compile must not poison the
        # cache, and another thread's hit need not wait for it.
        kernel = compile_fn()
        with self._lock:
            self.compile_seconds += kernel.compile_seconds
            self._kernels[key] = kernel
            self._kernels.move_to_end(key)
            self._evict()
        return kernel

    def _evict(self):
        if len(self._kernels) > self._limit:
            self._dropped()
        while len(self._kernels) > self._limit:
            self._kernels.popitem(last=False)

    def info(self):
        with self._lock:
            return CacheInfo(self.hits, self.misses, self.compile_seconds,
                             len(self._kernels), self._limit,
                             self.disk["hit"],
                             self.disk["written"] + self.disk["replaced"],
                             self.disk["unwritable"])

    def count_disk(self, outcome, note):
        with self._lock:
            self.disk[outcome] += 1
            if note:
                self.disk_note = note

    def set_limit(self, limit):
        with self._lock:
            old, self._limit = self._limit, _check_limit(limit)
            self._evict()
            return old

    def clear(self):
        with self._lock:
            self._dropped()
            self._kernels.clear()
            self.hits = self.misses = 0
            self.compile_seconds = 0.0
            self.disk.clear()
            self.disk_note = ""


def _check_limit(limit):
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise ValueError(f"the cache limit must be an int >= 0, got {limit!r}")
    return limit


def _default_limit():
    text = os.environ.get("STRIDE_CACHE_SIZE")
    if text is None:
        return DEFAULT_LIMIT
    try:
        return _check_limit(int(text))
    except ValueError:
        raise ValueError(f"STRIDE_CACHE_SIZE must be an int >= 0, got {text!r}") from None


CACHE = KernelCache(_default_limit())


def cache_info():
    """hits, misses, compile_seconds (total), size and limit of the kernel
    cache; disk_hits (kernels loaded from the disk cache), disk_writes
    (compiled and written to it) and disk_failures (compiled in memory
    because the cache directory could not be written)."""
    return CACHE.info()


def cache_dir():
    """Where cache=True keeps kernels: $STRIDE_CACHE_DIR, else
    ~/.cache/stride."""
    given = os.environ.get("STRIDE_CACHE_DIR")
    if given:
        return os.path.abspath(os.path.expanduser(given))
    return os.path.join(os.path.expanduser("~"), ".cache", "stride")


_BUILD = None


def _build_key():
    """The compiler's identity: LLVM's version, this CPU and its features,
    and this build of the extension (its file's size and time), so a kernel
    from another Stride, LLVM or machine is never loaded."""
    global _BUILD
    if _BUILD is None:
        from . import _stride
        info = _stride.build_info()
        stat = os.stat(_stride.__file__)
        _BUILD = repr((sorted(info.items()), stat.st_size, stat.st_mtime_ns))
    return _BUILD


def compile_kernel(stride_module, text, entry, layouts, policy, fuse, keep,
                   threads, disk):
    """A kernel from the compiler, through the disk cache when `disk`."""
    if not disk:
        return stride_module.compile(text, entry, list(layouts), policy=policy,
                                     fuse=fuse, keep_result_layouts=keep,
                                     threads=threads)
    ident = repr((text, entry, tuple(layouts), policy, bool(fuse), bool(keep),
                  threads, _build_key()))
    key = hashlib.sha256(ident.encode()).hexdigest()[:40]
    kernel, outcome, note = stride_module.compile_cached(
        text, entry, list(layouts), policy, bool(fuse), bool(keep), threads,
        cache_dir(), key)
    CACHE.count_disk(outcome, note)
    return kernel


def set_cache_limit(limit):
    """Sets how many kernels the cache keeps (0 disables caching); evicts the
    least recently used beyond it. Returns the previous limit."""
    return CACHE.set_limit(limit)


def clear_cache():
    """Drops every cached kernel and resets the counters."""
    CACHE.clear()
