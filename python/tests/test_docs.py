"""docs/python.md's worked example runs and prints what the page says it prints."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_worked_example_prints_what_the_page_shows(tmp_path):
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## A worked example", 1)[1].split("\n## ", 1)[0]
    code, printed = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)  # the example saves classic.lgtb in the working directory
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(DOC), "exec"), {"__name__": "__doc_example__"})
    finally:
        os.chdir(cwd)
    assert (tmp_path / "classic.lgtb").is_file()
    assert out.getvalue() == printed


def test_module_docstrings_run():
    import doctest
    import sys

    import lgame  # noqa: F401  (imports lgame.env, lgame.oracle and lgame.single)
    import lgame.openspiel  # noqa: F401
    import lgame.vector  # noqa: F401

    for name in ("lgame.env", "lgame.oracle", "lgame.vector", "lgame.single", "lgame.openspiel"):
        failed, attempted = doctest.testmod(sys.modules[name])
        assert attempted > 0 and failed == 0, name
