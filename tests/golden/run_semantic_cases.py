#!/usr/bin/env python3
"""Programs whose meaning comes from JAX's or Shardy's own tests and sources, checked by value
against NumPy and by message against the reference's words.

Each `.mlir` file under the given directories starts with a comment naming the JAX or Shardy test
or source line it comes from, and carries directives in comments:

  // NUMPY: r[0] = 2 * (a[0] @ a[1])
      Python run with NumPy as `np`, the inputs as float64 arrays `a[i]` (random, seeded per
      file), setting the expected results `r[i]`. The file is run with `shardscope-cli run` on
      those inputs; every result must match within float32 tolerance. Several NUMPY lines form
      one block.
  // INPUT-INTS: 0,3
      The inputs with these indices are small integers rather than normal floats.
  // CLI <command> [args...]: <text>
      `shardscope-cli <command> FILE [args...]` exits 0 and prints <text> (stdout or stderr).
  // CLI-NOT <command> [args...]: <text>
      ... exits 0 and does not print <text>.
  // CLI-FAIL <command> [args...]: <text>
      ... exits 1 and prints <text>, located at FILE:line:col as an error.
  // CLI-EXIT-1 <command> [args...]: <text>
      ... exits 1 and prints <text> (a run whose check finds a problem).

usage: run_semantic_cases.py SHARDSCOPE_CLI DIR [DIR...]
"""
import os
import re
import subprocess
import sys
import tempfile
import zlib

try:
    import numpy as np
except ImportError:
    print("FAIL: numpy is missing (cmake/install-deps.sh installs python3-numpy)")
    sys.exit(1)

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64,
          "ui32": np.uint32, "i1": np.bool_}


def main_signature(text):
    """The argument types of @main (or the only public function) as (shape, dtype) pairs."""
    m = re.search(r"func\.func\s+(?:public\s+)?@main\((.*?)\)\s*(?:->|attributes|\{)", text, re.S)
    if not m:
        return None
    args = []
    for shape, elem in re.findall(r"%\w+:\s*tensor<((?:\d+x)*)(\w+)>", m.group(1)):
        dims = tuple(int(d) for d in shape.split("x") if d)
        args.append((dims, elem))
    return args


def run_cli(cli, *args):
    try:
        r = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    return r


def check_numpy(cli, path, text, code, failures):
    sig = main_signature(text)
    if sig is None:
        failures.append(f"{path}: NUMPY given but no @main signature found")
        return
    ints = set()
    m = re.search(r"^// INPUT-INTS:\s*([\d,\s]+)$", text, re.M)
    if m:
        ints = {int(x) for x in m.group(1).split(",") if x.strip()}
    rng = np.random.default_rng(zlib.crc32(os.path.basename(path).encode()))
    inputs = []
    for i, (shape, elem) in enumerate(sig):
        dtype = DTYPES.get(elem)
        if dtype is None:
            failures.append(f"{path}: input {i} has element type {elem} the harness cannot make")
            return
        if i in ints or np.issubdtype(dtype, np.integer):
            value = rng.integers(0, 4, size=shape).astype(dtype)
        else:
            value = rng.standard_normal(shape).astype(dtype)
        inputs.append(value)
    with tempfile.TemporaryDirectory() as tmp:
        specs = []
        for i, value in enumerate(inputs):
            name = os.path.join(tmp, f"in{i}.npy")
            np.save(name, value)
            specs.append(f"{i}={name}")
        out = os.path.join(tmp, "out")
        args = ["run", path, "--output-dir", out]
        if specs:
            args += ["--inputs", ",".join(specs)]
        r = run_cli(cli, *args)
        if r is None or r.returncode != 0:
            failures.append(f"{path}: run failed\n" + ("timeout" if r is None else r.stdout + r.stderr))
            return
        a = [v.astype(np.float64) if v.dtype.kind == "f" else v for v in inputs]
        r_expected = {}
        scope = {"np": np, "a": a, "r": r_expected}
        try:
            exec(code, scope)
        except Exception as e:  # the case itself is wrong: say so
            failures.append(f"{path}: NUMPY block raised {e!r}")
            return
        for index, expected in sorted(r_expected.items()):
            result_path = os.path.join(out, f"result_{index}.npy")
            if not os.path.exists(result_path):
                failures.append(f"{path}: no result {index}")
                continue
            got = np.load(result_path)
            expected = np.asarray(expected)
            if got.shape != expected.shape:
                failures.append(f"{path}: result {index} has shape {got.shape}, NumPy {expected.shape}")
                continue
            if not np.allclose(got.astype(np.float64), expected.astype(np.float64),
                               rtol=1e-4, atol=1e-4):
                diff = np.abs(got.astype(np.float64) - expected.astype(np.float64)).max()
                failures.append(f"{path}: result {index} differs from NumPy by {diff}\n"
                                f"got:\n{got}\nexpected:\n{expected}")


def check_cli(cli, path, kind, command, expected, failures):
    words = command.split()
    r = run_cli(cli, words[0], path, *words[1:])
    if r is None:
        failures.append(f"{path}: `{command}` timed out")
        return
    output = r.stdout + r.stderr
    where = f"{path}: `{command}`"
    if kind == "CLI-FAIL":
        if r.returncode != 1:
            failures.append(f"{where} exited {r.returncode}, expected 1\n{output}")
        elif expected not in output:
            failures.append(f"{where} does not say {expected!r}:\n{output}")
        elif not re.search(re.escape(path) + r":\d+:\d+: error: ", output):
            failures.append(f"{where}: the error is not located at {path}:line:col:\n{output}")
        return
    if kind == "CLI-EXIT-1":
        if r.returncode != 1 or expected not in output:
            failures.append(f"{where} exited {r.returncode}, expected 1 and {expected!r}:\n{output}")
        return
    if r.returncode != 0:
        failures.append(f"{where} exited {r.returncode}\n{output}")
    elif kind == "CLI" and expected not in output:
        failures.append(f"{where} does not print {expected!r}:\n{output}")
    elif kind == "CLI-NOT" and expected in output:
        failures.append(f"{where} prints {expected!r}:\n{output}")


def main():
    cli, dirs = sys.argv[1], sys.argv[2:]
    failures = []
    files = sorted(os.path.join(root, f) for d in dirs for root, _, names in os.walk(d)
                   for f in names if f.endswith(".mlir"))
    checks = 0
    for path in files:
        text = open(path).read()
        if not text.startswith("//"):
            failures.append(f"{path}: the first line must name the source this case comes from")
        code = "\n".join(m.group(1) for m in re.finditer(r"^// NUMPY: ?(.*)$", text, re.M))
        directives = re.findall(r"^// (CLI|CLI-NOT|CLI-FAIL|CLI-EXIT-1) ([^:]+): (.*)$", text, re.M)
        if not code and not directives:
            failures.append(f"{path}: no NUMPY or CLI directive: the case checks nothing")
        if code:
            checks += 1
            check_numpy(cli, path, text, code, failures)
        for kind, command, expected in directives:
            checks += 1
            check_cli(cli, path, kind, command.strip(), expected.strip(), failures)
    for f in failures:
        print("FAIL:", f)
    print(f"{len(files)} cases, {checks} checks, {len(failures)} failures")
    return 1 if failures or not files else 0


if __name__ == "__main__":
    sys.exit(main())
