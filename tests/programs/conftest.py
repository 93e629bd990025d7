"""The programs in scripts/ are scripts, not test modules: pytest must never import them
(``make test`` passes --doctest-modules, which would run each one at collection)."""

collect_ignore_glob = ["scripts/*.py", "run_programs.py", "torch_is_minigrad.py"]
