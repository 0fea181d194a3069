#!/usr/bin/env bash
# Fetch, on a machine with network access, the pure-Python wheels that tools/gpu_check.sh needs on a GPU machine whose
# image has torch, CuPy, numpy, ml_dtypes and pytest but not nbdev's stack: fastcore (tinytensor's @patch), nbdev and
# execnb (nbdev-test) with IPython and its dependencies, ipywidgets (the explorers). Usage: tools/gpu_wheels.sh [DIR=.whl]
set -euo pipefail
dir=${1:-.whl}
mkdir -p "$dir"
pkgs="fastcore==2.2.41 nbdev==3.3.26 execnb==0.3.4 fastgit==0.1.4 ghapi==2.1.4 asttokens==3.0.1 astunparse==1.6.3
      watchdog==6.0.0 ipython==8.12.3 traitlets==5.14.3 jedi==0.19.2 parso==0.8.4 prompt_toolkit==3.0.52 wcwidth==0.2.13
      pexpect==4.9.0 ptyprocess==0.7.0 decorator==5.2.1 matplotlib-inline==0.1.7 stack_data==0.6.3 executing==2.2.1
      pure_eval==0.2.3 backcall==0.2.0 pickleshare==0.7.5 ipywidgets==8.1.7 comm==0.2.3 widgetsnbextension==4.0.14
      jupyterlab_widgets==3.0.15 six==1.17.0"
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform any \
    -d "$dir" $pkgs
ls "$dir" | wc -l
