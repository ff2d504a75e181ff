# The kernels of cl2c_demo/kernels.cl become the extension module
# cl2c_demo.kernels when the wheel builds (cl2c provides the setup() keyword).
from setuptools import setup

setup(cl2c_modules=["cl2c_demo/kernels.cl:cl2c_demo.kernels"])
