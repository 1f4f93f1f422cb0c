# The package holds liburim.so, the C library built from the Go module one
# directory up. `pip install ./python` builds it here when Go is on the PATH
# (build_py below), so one command installs everything; without Go it ships
# the liburim.so that scripts/build_python.sh left in urim/ (the offline
# route). A wheel of it is specific to the platform: say so to setuptools.
import os
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIB = "liburim.so"


def find_go():
    go = shutil.which("go")
    if go is None and os.path.exists("/usr/local/go/bin/go"):
        go = "/usr/local/go/bin/go"
    return go


class BuildPyWithGo(build_py):
    """build_py, then liburim.so: built by `go build -buildmode=c-shared`
    into the build directory when Go and the module are at hand (unless
    URIM_SKIP_GO_BUILD=1), else copied from urim/; neither is an error."""

    def run(self):
        super().run()
        out = os.path.abspath(os.path.join(self.build_lib, "urim", LIB))
        go = find_go()
        module = os.path.exists(os.path.join(ROOT, "go.mod")) and os.path.isdir(os.path.join(ROOT, "cmd", "liburim"))
        skip = os.environ.get("URIM_SKIP_GO_BUILD") == "1"
        if go and module and not skip:
            print(f"urim: building {LIB} with {go} (go build -buildmode=c-shared ./cmd/liburim)", file=sys.stderr)
            env = dict(os.environ, CGO_ENABLED="1")
            try:
                subprocess.run([go, "build", "-buildmode=c-shared", "-trimpath", "-o", out, "./cmd/liburim"],
                               cwd=ROOT, env=env, check=True)
            except subprocess.CalledProcessError as e:
                raise SystemExit(f"urim: go build of {LIB} failed ({e}); fix it, or build it with "
                                 "scripts/build_python.sh and install with URIM_SKIP_GO_BUILD=1") from e
            header = os.path.splitext(out)[0] + ".h"
            if os.path.exists(header):
                os.remove(header)
            return
        src = os.path.join(HERE, "urim", LIB)
        if not os.path.exists(src):
            why = ("URIM_SKIP_GO_BUILD=1" if skip else "Go is not on the PATH" if not go
                   else f"the Go module is not at {ROOT}")
            raise SystemExit(f"urim: {LIB} is missing and cannot be built ({why}): install Go 1.26 and run "
                             f"`pip install ./python` again, or build it with scripts/build_python.sh first")
        print(f"urim: shipping the prebuilt {src}", file=sys.stderr)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copyfile(src, out)  # over whatever an earlier build left in build/
        os.chmod(out, 0o755)


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(distclass=BinaryDistribution, cmdclass={"build_py": BuildPyWithGo})
