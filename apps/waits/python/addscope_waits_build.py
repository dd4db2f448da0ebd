"""The PEP 517 build backend behind `pip install .`: builds the waits tool
alone with CMake (addscope_WAITS_ONLY: no Kokkos, Kokkos Kernels or CUDA) and
packs the installed launcher, tool and plotter into a wheel beside the
Python package apps/waits/python/addscope_waits.

In-tree and standard library only, so that it builds with no network and no
build packages: pip's isolated build environment installs nothing
(pyproject.toml's requires is empty), and a venv of Python 3.12 or later has
no setuptools. What the build needs is what the CMake build needs: cmake, a
C++17 compiler, CLI11 and nlohmann-json (Debian: `bash cmake/dev.sh tool`
installs them, or apt install cmake g++ libcli11-dev nlohmann-json3-dev).

  ADDSCOPE_PIP_BUILD_DIR   keep the CMake build there (default: a temporary
                           folder, removed after)
  ADDSCOPE_PIP_JOBS        parallel compile jobs (default: the CPU count)
"""
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
NAME = "addscope_waits"


def _version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(addscope VERSION ([0-9.]+)", f.read())
    if not m:
        _fail("no 'project(addscope VERSION x.y.z' in CMakeLists.txt")
    return m.group(1)


def _fail(message):
    sys.stderr.write(f"addscope-waits build: {message}\n")
    raise SystemExit(1)


def _run(args, log):
    log.write("$ " + " ".join(args) + "\n")
    log.flush()
    rc = subprocess.call(args, stdout=log, stderr=subprocess.STDOUT)
    if rc != 0:
        log.flush()
        with open(log.name) as f:
            tail = f.read()[-6000:]
        sys.stderr.write(tail)
        _fail(f"'{' '.join(args[:3])} ...' failed with exit status {rc} "
              f"(its output above; the whole log: {log.name})")


def _build(stage, build_dir):
    cmake = shutil.which("cmake")
    if not cmake:
        _fail("cmake not found on PATH; the tool is built with CMake and a "
              "C++17 compiler (Debian: apt install cmake g++ libcli11-dev "
              "nlohmann-json3-dev, or bash cmake/dev.sh tool)")
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    jobs = os.environ.get("ADDSCOPE_PIP_JOBS") or str(os.cpu_count() or 1)
    if not jobs.isdigit() or int(jobs) < 1:
        _fail(f"ADDSCOPE_PIP_JOBS = '{jobs}' is invalid; allowed: an integer >= 1")
    os.makedirs(build_dir, exist_ok=True)
    with open(os.path.join(build_dir, "pip-build.log"), "w") as log:
        _run([cmake, "-S", ROOT, "-B", build_dir, *generator,
              "-DCMAKE_BUILD_TYPE=Release", "-Daddscope_WAITS_ONLY=ON",
              "-Daddscope_ENABLE_TESTS=OFF", f"-DCMAKE_INSTALL_PREFIX={stage}",
              "-DCMAKE_INSTALL_BINDIR=bin", "-DCMAKE_INSTALL_LIBDIR=lib",
              "-DCMAKE_INSTALL_DOCDIR=share/doc/addscope"], log)
        _run([cmake, "--build", build_dir, "-j", jobs], log)
        _run([cmake, "--install", build_dir], log)


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{arcname},sha256={digest.decode()},{len(data)}"


def _tag():
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"py3-none-{platform}"


def _metadata(version):
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\n"
            "Summary: Which call waited for which kernel: the addscope waits "
            "tool for any Kokkos or CUDA program (C++, CuPy, numba, PyTorch)\n"
            "Requires-Python: >=3.8\n")


def _write_wheel(wheel_directory, stage, version):
    tag = _tag()
    wheel_name = f"{NAME}-{version}-{tag}.whl"
    dist_info = f"{NAME}-{version}.dist-info"
    files = []  # (arcname, path or bytes, executable)
    package = os.path.join(HERE, NAME)
    for f in sorted(os.listdir(package)):
        if f.endswith(".py"):
            files.append((f"{NAME}/{f}", os.path.join(package, f), False))
    for sub in ("bin", "lib", "share"):  # share/doc/addscope: what --help names
        for folder, _, names in sorted(os.walk(os.path.join(stage, sub))):
            for f in sorted(names):
                path = os.path.join(folder, f)
                if os.path.islink(path) or not os.path.isfile(path):
                    continue  # versioned .so links: the tool is opened by its one name
                rel = os.path.relpath(path, stage).replace(os.sep, "/")
                files.append((f"{NAME}/{rel}", path, os.access(path, os.X_OK)))
    files.append((f"{dist_info}/METADATA", _metadata(version).encode(), False))
    files.append((f"{dist_info}/WHEEL",
                  ("Wheel-Version: 1.0\nGenerator: addscope_waits_build\n"
                   f"Root-Is-Purelib: false\nTag: {tag}\n").encode(), False))
    files.append((f"{dist_info}/entry_points.txt",
                  (f"[console_scripts]\naddscope-waits = {NAME}:main\n"
                   f"addscope-waits-plot = {NAME}:plot\n").encode(), False))
    os.makedirs(wheel_directory, exist_ok=True)
    target = os.path.join(wheel_directory, wheel_name)
    partial = target + ".partial"  # nothing half-written under the real name
    record = []
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, src, executable in files:
            if isinstance(src, bytes):
                data = src
            else:
                with open(src, "rb") as f:
                    data = f.read()
            info = zipfile.ZipInfo(arcname, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
            record.append(_record_line(arcname, data))
        record.append(f"{dist_info}/RECORD,,")
        z.writestr(zipfile.ZipInfo(f"{dist_info}/RECORD", date_time=(2026, 1, 1, 0, 0, 0)),
                   "\n".join(record) + "\n")
    os.replace(partial, target)
    return wheel_name


# ---- PEP 517 hooks ------------------------------------------------------------
def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    version = _version()
    keep = os.environ.get("ADDSCOPE_PIP_BUILD_DIR")
    with tempfile.TemporaryDirectory(prefix="addscope-waits-build-") as tmp:
        build_dir = os.path.abspath(keep) if keep else os.path.join(tmp, "build")
        stage = os.path.join(tmp, "stage")
        _build(stage, build_dir)
        return _write_wheel(wheel_directory, stage, version)
