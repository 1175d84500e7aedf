# The Python package built by CMake (python/CMakeLists.txt): the project is
# configured without its tests and only the extension's target is built, so
# the package has exactly the module that `cmake --install` installs. See
# docs/python.md; pyproject.toml holds the metadata.
import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
VERSION = re.search(r"project\(mocap VERSION (\S+)", (ROOT / "CMakeLists.txt").read_text()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DBUILD_TESTING=OFF", f"-DPython3_EXECUTABLE={sys.executable}"]
        subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "mocap_python", "-j", jobs], check=True)
        built = list((build / "python" / "mocap").glob("_mocap.*.so"))
        if len(built) != 1:
            sys.exit(f"setup.py: expected one _mocap.*.so in {build / 'python' / 'mocap'}, found {built}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=VERSION,
    packages=["mocap"],
    package_dir={"": "python"},
    package_data={"mocap": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("mocap._mocap", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Beside the CMake build folders (/build*/ in .gitignore), not in build/ itself.
    options={"build": {"build_base": "build-pip"}},
    zip_safe=False,
)
