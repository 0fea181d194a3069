"""Measure how much of torch's everyday tensor API tinytensor has, and how much of it matches torch.

Usage: python tools/api_coverage.py [--json out.json] [--verbose] [--only NAME ...] [--selfcheck] [--device cuda] [--jobs N]
(with PYTHONPATH pointing at the checkout to measure). --only measures a few names (`add`,
`Tensor.add_`, `Tensor.__getitem__`); --selfcheck runs every probe with torch on both sides, which
must all match (it guards the recipes against random or uninitialized values).

For every name in the list below: presence (`hasattr(tt, name)` for torch functions,
`hasattr(tt.Tensor, name)` for Tensor methods and attributes), then, for present names, probes:
the same call on tinytensor and torch with the same inputs, comparing shape, strides,
storage_offset, dtype, values (exact for integers, bools and non-transcendental float results;
a tight tolerance for transcendental floats, float reductions and products), the exception class
when torch raises, the state of the inputs after the call (mutations), whether the result is a
view of the input, and whether an in-place method returns self. A name matches only if every
probe matches.

The name list (data, grouped by category) and where the names come from (so the list is not hand-picked):

* torch functions: PyTorch's own API reference page `docs/source/torch.md` (formerly `torch.rst`;
  read from the pytorch/pytorch repository), sections "Creation Ops" (with the random-sampling
  creation ops that its note names: rand, rand_like, randn, randn_like, randint, randint_like,
  randperm), "Indexing, Slicing, Joining, Mutating Ops", "Pointwise Ops", "Reduction Ops",
  "Comparison Ops", and, from "Other Operations" and "BLAS and LAPACK Operations", only the
  shape helpers, scans, sorting helpers, elementwise helpers and basic products (the rule is
  spelled out in OTHER_KEPT / BLAS_KEPT below). From the "Tensors" and "Utilities" sections:
  the tensor predicates and the dtype helpers (dtype/device conversion and attributes); the
  "Serialization" section (save, load), probed through in-memory, gzip and real file streams.
* Tensor methods and attributes: `docs/source/tensors.md` (formerly `tensors.rst`), the
  "Tensor class reference" autosummary, plus the attributes it documents with autoattribute
  (T, H, mT, mH). A method joins the category of the torch function of the same name; an
  in-place variant `f_` of an out-of-place `f` goes to the category "inplace"; the methods
  with no torch function counterpart are classified in TENSOR_ONLY.
* Python-object protocols: the dunder methods that `torch.Tensor` defines itself
  (`dir(torch.Tensor)` in torch 2.13: torch/_tensor.py and torch._C.TensorBase), minus Python's
  class machinery.

Exclusions (names that cannot apply to a CPU tensor library without autograd, quantization,
sparse layouts, complex numbers or LAPACK) are listed with their reason in EXCLUDED, so every
name of the sections above is either measured or excluded for a stated reason.
"""
import argparse, copy, enum, io, json, math, os, pickle, signal, sys, tempfile, time, warnings, zlib
import numpy as np
import torch
import torch.fx.experimental.symbolic_shapes    # torch's argument checks import sympy on first use (seconds): not inside a timed probe
import tinytensor as tt
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))   # the sibling modules: name lists, probes, recipes
from coverage_names import *
from coverage_probes import *
from coverage_recipes import *
from coverage_recipes import _base_name
import coverage_probes, coverage_recipes

def _measure_part(job):
    names, device = job
    use_device(device)
    return measure(names)

def measure_parallel(names, jobs:int, device=None):
    "`measure` in `jobs` processes (spawned: each starts its own CUDA context and compiles its own kernels in parallel)."
    import multiprocessing as mp
    names = names or list(NAMES)
    with mp.get_context('spawn').Pool(jobs) as pool: parts = pool.map(_measure_part, [(names[i::jobs], device) for i in range(jobs)])
    res = {k: v for p in parts for k, v in p.items()}
    return {q: res[q] for q in names}
def present(qual):
    if qual.startswith('Tensor.'):
        n = qual[7:]
        if n.startswith('__') and getattr(tt.Tensor, n, None) is getattr(object, n, None) and n not in ('__hash__', '__format__', '__reduce_ex__'):
            return False     # only object's default (e.g. __setstate__ missing): not present
        return hasattr(tt.Tensor, n)
    return hasattr(tt, qual)

def probe_name(qual):
    "[(probe label, failure or None)] for one present name."
    tol = _base_name(qual) in TOLERANT
    return [(p.show(qual), run_probe(qual, p, tol)) for p in recipes_for(qual)]

def measure(names=None, verbose=False):
    "Run presence and probes for `names` (default: all); returns the result dictionary."
    names = names or list(NAMES)
    res = {}
    for q in names:
        r = {'category': NAMES.get(q, '?'), 'kind': 'method' if q.startswith('Tensor.') else 'function', 'present': present(q)}
        if not r['present']: r['status'] = 'missing'
        else:
            probes = probe_name(q)
            fails = [{'probe': lab, 'diff': d} for lab, d in probes if d]
            r['probes'], r['failures'] = len(probes), fails
            r['status'] = 'unprobed' if not probes else ('mismatch' if fails else 'match')
        res[q] = r
    return res

CATEGORIES = ['creation', 'indexing', 'pointwise', 'comparison', 'reduction', 'other', 'blas', 'attributes', 'serialization',
              'protocols', 'inplace']

def summarize(res):
    "Per category and kind: total, present, matching, mismatching, unprobed."
    def blank(): return {'total': 0, 'present': 0, 'match': 0, 'mismatch': 0, 'unprobed': 0}
    table = {}
    for q, r in res.items():
        for key in ((r['category'], r['kind']), (r['category'], 'all'), ('TOTAL', r['kind']), ('TOTAL', 'all')):
            row = table.setdefault(key[0], {}).setdefault(key[1], blank())
            row['total'] += 1
            if r['present']: row['present'] += 1; row[r['status']] += 1
    return table

def _pct(a, b): return f'{100 * a / b:5.1f}%' if b else '   - '

def report(res, verbose=False, out=sys.stdout):
    table = summarize(res)
    w = out.write
    w('torch API coverage of tinytensor (names from torch.md/tensors.md; see tools/api_coverage.py)\n')
    w(f'present% = present/total; match% = names matching torch on every probe / present; {len(EXCLUDED)} torch names '
      f'excluded for a stated reason (EXCLUDED; listed with --verbose)\n\n')
    if verbose:
        by = {}
        for n, why in EXCLUDED.items(): by.setdefault(why, []).append(n)
        for why, ns in by.items(): w(f'  excluded, {why}: {", ".join(ns)}\n')
        w('\n')
    w(f'{"category":<12} {"kind":<9} {"total":>5} {"present":>7} {"match":>6} {"mismatch":>8} {"unprobed":>8}   {"present%":>8} {"match%":>7}\n')
    for c in CATEGORIES + ['TOTAL']:
        for k in ('function', 'method', 'all'):
            row = table.get(c, {}).get(k)
            if not row: continue
            w(f'{c if k != "all" or c == "TOTAL" else "":<12} {k:<9} {row["total"]:>5} {row["present"]:>7} {row["match"]:>6} {row["mismatch"]:>8} '
              f'{row["unprobed"]:>8}   {_pct(row["present"], row["total"]):>8} {_pct(row["match"], row["present"]):>7}\n')
        w('\n')
    for c in CATEGORIES:
        items = [(q, r) for q, r in res.items() if r['category'] == c]
        miss = [q for q, r in items if not r['present']]
        mism = [(q, r) for q, r in items if r.get('status') == 'mismatch']
        unp = [q for q, r in items if r.get('status') == 'unprobed']
        if not (miss or mism or unp): continue
        w(f'== {c}\n')
        if miss: w(f'  missing ({len(miss)}): ' + ', '.join(miss) + '\n')
        if unp: w(f'  present, unprobed ({len(unp)}): ' + ', '.join(unp) + '\n')
        for q, r in mism:
            f = r['failures']
            if verbose:
                w(f'  MISMATCH {q} ({len(f)}/{r["probes"]} probes fail)\n')
                for x in f: w(f'      {x["probe"]}\n          -> {x["diff"]}\n')
            else:
                w(f'  MISMATCH {q} ({len(f)}/{r["probes"]}): {f[0]["probe"]} -> {f[0]["diff"]}\n')
        w('\n')

def selfcheck(names=None):
    "Run every probe with torch on both sides; a failure is a recipe or comparison bug, not a tinytensor one."
    global tt
    mods = (coverage_probes, coverage_recipes)                  # the probes and recipes read `tt` too
    saved, tt = tt, torch
    for m in mods: m.tt = torch
    try: res = measure(names)
    finally:
        tt = saved
        for m in mods: m.tt = saved
    bad = {q: r for q, r in res.items() if r['status'] != 'match'}
    for q, r in bad.items():
        print(f'{q}: {r["status"]}', *(f'\n    {f["probe"]} -> {f["diff"]}' for f in r.get('failures', [])))
    print(f'selfcheck: {len(res) - len(bad)}/{len(res)} names consistent')
    return 1 if bad else 0

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--json', help='write the machine-readable result to this file')
    ap.add_argument('--verbose', action='store_true', help='show every failing probe with the difference found')
    ap.add_argument('--only', nargs='*', help='measure only these names (e.g. add Tensor.add_)')
    ap.add_argument('--selfcheck', action='store_true',
                    help='probe torch against itself: every name must match (checks the recipes are deterministic)')
    ap.add_argument('--device', choices=['cuda'], help='build every probe tensor on CUDA (the strict CuPy stand-in without a GPU)')
    ap.add_argument('--jobs', type=int, default=1, help='measure in this many processes')
    a = ap.parse_args(argv)
    t0 = time.time()
    if a.jobs > 1 and not a.selfcheck: res = measure_parallel(a.only or None, a.jobs, a.device)
    else:
        use_device(a.device)
        if a.selfcheck: return selfcheck(a.only or None)
        res = measure(a.only or None)
    if a.device: print(f"device: {DEVICE['tt'] or a.device} (tinytensor{' on the strict CuPy stand-in' if not tt.cuda.is_available() or DEVICE['standin'] else ''}), "
                       f"torch on {DEVICE['torch'] or ('cpu' if not torch.cuda.is_available() else 'cuda')}")
    report(res, a.verbose)
    print(f'({len(res)} names, {sum(r.get("probes", 0) for r in res.values())} probes, {time.time() - t0:.1f}s)')
    if a.json:
        doc = {'summary': summarize(res), 'names': res, 'excluded': EXCLUDED, 'torch_version': torch.__version__}
        with open(a.json, 'w') as f: json.dump(doc, f, indent=1, sort_keys=True)
    return 0

if __name__ == '__main__': sys.exit(main())
