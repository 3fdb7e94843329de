"""A tiny PEP 517 build backend that packs the `carcassonne` package (its extension `_core`, already
built by the project's CMake build, and its Python files) into a wheel. No compiler and no downloads:
`pip install ./python` works offline.

The extension is looked for in $CARC_BUILD_DIR/python/carcassonne (default: <repository>/build/python/
carcassonne). It must have been built for the interpreter that runs pip (same EXT_SUFFIX, e.g.
.cpython-311-x86_64-linux-gnu.so); the CMake build targets /usr/bin/python3 unless configured
with -DCARC_PYTHON=... The Python files are taken from python/carcassonne/ (the source).
"""
import base64
import hashlib
import os
import pathlib
import sys
import sysconfig
import zipfile

NAME = "carcassonne"
VERSION = "0.1.0"
_HERE = pathlib.Path(__file__).resolve().parent


def _module_path():
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    dirs = []
    if os.environ.get("CARC_BUILD_DIR"):
        dirs.append(pathlib.Path(os.environ["CARC_BUILD_DIR"]) / "python" / NAME)
    dirs.append(_HERE.parent / "build" / "python" / NAME)
    for d in dirs:
        p = d / ("_core" + suffix)
        if p.is_file():
            return p
    found = [str(p) for d in dirs for p in d.glob("_core.*so")]
    raise RuntimeError(
        f"no {NAME}{suffix} in {', '.join(map(str, dirs))}. Build it first "
        f"(cmake -S . -B build -G Ninja && ninja -C build) for this interpreter ({sys.executable}), "
        f"or set CARC_BUILD_DIR to the build directory."
        + (f" Found modules for other interpreters: {found}" if found else ""))


def _tag():
    impl = f"cp{sys.version_info.major}{sys.version_info.minor}"
    abi = impl + getattr(sys, "abiflags", "")
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}-{abi}-{plat}"


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"
            "Summary: Carcassonne game engine (C++) for Python: exact rules, observations, batch play, AI players\n"
            "Provides-Extra: numpy\nRequires-Dist: numpy; extra == \"numpy\"\n")


def _wheel_file():
    return f"Wheel-Version: 1.0\nGenerator: carc_build_backend\nRoot-Is-Purelib: false\nTag: {_tag()}\n"


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = pathlib.Path(metadata_directory) / f"{NAME}-{VERSION}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata())
    (info / "WHEEL").write_text(_wheel_file())
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    module = _module_path()
    name = f"{NAME}-{VERSION}-{_tag()}.whl"
    info = f"{NAME}-{VERSION}.dist-info"
    files = {f"{NAME}/{module.name}": module.read_bytes()}
    for p in sorted((_HERE / NAME).iterdir()):
        if p.suffix in (".py", ".pyi") or p.name == "py.typed":
            files[f"{NAME}/{p.name}"] = p.read_bytes()
    files.update({
        f"{info}/METADATA": _metadata().encode(),
        f"{info}/WHEEL": _wheel_file().encode(),
    })
    record = "".join(f"{p},{_digest(d)},{len(d)}\n" for p, d in files.items()) + f"{info}/RECORD,,\n"
    files[f"{info}/RECORD"] = record.encode()
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as z:
        for p, d in files.items():
            zi = zipfile.ZipInfo(p, date_time=(2020, 1, 1, 0, 0, 0))
            zi.external_attr = (0o755 if p.endswith(".so") else 0o644) << 16
            z.writestr(zi, d, zipfile.ZIP_DEFLATED)
    return name
