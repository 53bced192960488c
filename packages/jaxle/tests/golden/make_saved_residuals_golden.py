"""Write saved_residuals_golden.json: what ``jax.ad_checkpoint.print_saved_residuals`` prints for the functions of
saved_residuals_examples.py (the examples file's path written as EXAMPLES); replayed by test_saved_residuals.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_saved_residuals_golden.py jax
"""

import contextlib
import importlib
import io
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))

import saved_residuals_examples  # noqa: E402 - found through the path set just above
from golden_writer import write_golden


def printed(m, name: str) -> list[str]:
    fun, args = saved_residuals_examples.cases(m)[name]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        m.ad_checkpoint.print_saved_residuals(fun, *args)
    return out.getvalue().replace(saved_residuals_examples.__file__, "EXAMPLES").splitlines()


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.ad_checkpoint")
    records = {name: printed(module, name) for name in saved_residuals_examples.cases(module)}
    out = pathlib.Path(__file__).parent / "saved_residuals_golden.json"
    write_golden(records, out)
