"""Course tooling for the minigrad exercise sets: the checks their grade cells call.

Not part of the autograd library: ``minigrad`` never imports it. Teachers who write their
own exercises use :mod:`minigrad_course.checks`; ``teacher/README.md`` and the docs' teacher
guide describe the nbgrader course around them. The checks speak English, Russian or
Chinese: ``minigrad_course.set_language("ru")`` (:mod:`minigrad_course.i18n`).
"""

from minigrad_course.i18n import language, set_language
