# The storage benchmark's probe (see storage.js), run by python3 in the environment. Prints one JSON
# document. Python rather than a shell loop: a loop would time fork+exec of `touch` and `mv`, not the
# filesystem. Timings use perf_counter; setup work (copying the reference file) is not timed.
import json, os, sys, time

files, file_bytes, lower = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
scratch = os.environ["SCRATCH"]
CHUNK = 4096


def modify(path):
    """Overwrites 4 KiB in the middle of a file and syncs it: on the container layer, the first write to a
    file from a lower layer copies the whole file up first."""
    t0 = time.perf_counter()
    fd = os.open(path, os.O_RDWR)
    os.pwrite(fd, b"\xa5" * CHUNK, os.fstat(fd).st_size // 2)
    os.fsync(fd)
    os.close(fd)
    return (time.perf_counter() - t0) * 1000


def copy(src, dst):
    with open(src, "rb") as a, open(dst, "wb") as b:
        while chunk := a.read(1 << 20):
            b.write(chunk)
        b.flush()
        os.fsync(b.fileno())


def metadata(base):
    d = os.path.join(base, "meta-%d" % os.getpid())
    os.mkdir(d)
    names = [os.path.join(d, "f%06d" % i) for i in range(files)]
    data = b"x" * file_bytes
    rates = {}
    t0 = time.perf_counter()
    for n in names:
        fd = os.open(n, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, data)
        os.close(fd)
    rates["create"] = files / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for n in names:
        os.stat(n)
    rates["stat"] = files / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for n in names:
        os.rename(n, n + ".r")
    rates["rename"] = files / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for n in names:
        os.unlink(n + ".r")
    rates["delete"] = files / (time.perf_counter() - t0)
    os.rmdir(d)
    return rates


out = {"lowerFile": lower if os.path.exists(lower) else None, "copyUp": {}, "metadata": {}}
# Without an image layer (native), the reference file is made here, untimed: a plain in-place write.
layer_file = lower
if out["lowerFile"] is None:
    layer_file = os.path.abspath("copy-up.bin")
    with open(layer_file, "wb") as f:
        for _ in range(64):
            f.write(os.urandom(1 << 20))
        f.flush()
        os.fsync(f.fileno())
out["fileBytes"] = os.path.getsize(layer_file)
volume_file = os.path.join(scratch, "copy-up.bin")
copy(layer_file, volume_file)
out["copyUp"]["layer"] = modify(layer_file)
out["copyUp"]["volume"] = modify(volume_file)
os.unlink(volume_file)
if out["lowerFile"] is None:
    os.unlink(layer_file)
out["metadata"]["layer"] = metadata(".")
out["metadata"]["volume"] = metadata(scratch)
print(json.dumps(out))
