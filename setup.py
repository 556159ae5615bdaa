"""The package layout and the compiled plain lane (the rest of the build is in pyproject.toml).

Installed, annoscore is one package, `annoscore`; the repository keeps its
top-level folders (``scorer/``, ``server/``) and this file maps them onto
`annoscore.scorer` and `annoscore.server`.

The extension is `optional=True`: without a C compiler the build says so and
goes on, and annoscore runs its pure-Python lane (``annoscore --version``
says which).
"""

from setuptools import Extension, find_packages, setup

# Repository folder → installed package.
PARTS = {"annoscore": "annoscore", "annoscore.scorer": "scorer", "annoscore.server": "server"}
# The one place the extension's module name is written (the C file names only its last part).
PLAIN_LANE = "annoscore.scorer.conllu._plain"

packages = ["annoscore"] + [f"annoscore.{top}.{sub}" if sub else f"annoscore.{top}"
                            for top in ("scorer", "server")
                            for sub in ["", *find_packages(top)]]
setup(packages=packages, package_dir=PARTS,
      ext_modules=[Extension(PLAIN_LANE, sources=["scorer/conllu/_plain.c"], optional=True,
                             extra_compile_args=["-O2"])])
