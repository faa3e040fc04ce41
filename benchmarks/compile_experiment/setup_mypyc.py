import os
from setuptools import setup
from mypyc.build import mypycify
mods = os.environ["MODS"].split(",")
setup(name="rk_compiled", ext_modules=mypycify(mods + ["--ignore-missing-imports", "--follow-imports=silent"], opt_level=os.environ.get("OPT", "3")))
