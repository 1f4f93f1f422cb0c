# The package holds liburim.so, built from Go by scripts/build_python.sh: a
# wheel of it is specific to the platform, so say so to setuptools.
from setuptools import setup
from setuptools.dist import Distribution


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(distclass=BinaryDistribution)
