"""The hostile names of issue 21, shared by the browser tests that feed them to the widgets
(``tests/browser/test_hostile_names_static.py`` on an exported page,
``tests/browser/test_hostile_names_lab.py`` in JupyterLab); each loads this file with
``runpy.run_path`` (pytest's importlib mode puts no test folder on ``sys.path``).

Script, an event handler, an attribute break-out, a ``javascript:`` link, unbalanced markup,
Graphviz record syntax, a newline, a backslash, an entity, and a very long name with markup
in its middle.
"""

NAMES = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    '" onmouseover="alert(1)',
    '<a href="javascript:alert(1)">x</a>',
    "<b>",
    "{a|b}",
    "a\nb",
    "\\",
    "&amp;",
    "n" * 250 + "<i>" + "m" * 247,
]
