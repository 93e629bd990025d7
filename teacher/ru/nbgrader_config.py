# nbgrader's configuration for the exercise sets in ru: a course directory of its own (a
# class is taught in one language), with the same set names as the English one. Run nbgrader
# from this folder; docs/translating_exercises.md says how the sources here are built.
c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

# Everything as in the English course (teacher/nbgrader_config.py): grading in isolation,
# the feedback's preprocessors, the timeouts ...
load_subconfig("../nbgrader_config.py")  # noqa: F821 - provided by nbgrader as well

c.CourseDirectory.course_id = "minigrad-ru"
# ... but the translated teacher sources (built by scripts/translate_exercises.py, never
# edited by hand) are released beside the translated lessons.
c.CourseDirectory.release_directory = "../../notebooks/ru/exercises"
