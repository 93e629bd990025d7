# nbgrader's configuration for the minigrad exercise sets. Run nbgrader from this folder
# (teacher/), which is the course directory: docs/teachers.md has the whole workflow.
c = get_config()  # noqa: F821 - provided by nbgrader when it loads this file

c.CourseDirectory.course_id = "minigrad"
# The teacher's versions, with solutions and hidden tests: teacher/source/<set>/<set>.ipynb.
c.CourseDirectory.source_directory = "source"
# `nbgrader generate_assignment` writes the student versions straight into the folder that
# `make lab` opens: notebooks/exercises/<set>/<set>.ipynb. They are committed as nbgrader
# wrote them (tests/course checks that regenerating changes nothing).
c.CourseDirectory.release_directory = "../notebooks/exercises"
# Submissions, grades and feedback stay in the course directory (ignored by git).
c.CourseDirectory.submitted_directory = "submitted"
c.CourseDirectory.autograded_directory = "autograded"
c.CourseDirectory.feedback_directory = "feedback"
# Feedback shows each graded cell as the student saw it, without the hidden tests, and each
# failure as its one-line message (a traceback would quote the hidden test that failed).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbgrader.preprocessors.ClearHiddenTests",
    "minigrad_course.feedback.ShortErrors",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
# Autograde puts back each locked cell as the teacher wrote it. nbgrader's own OverwriteCells
# compares against a checksum taken before the hidden tests were removed, so it warned about
# every graded cell of every submission; RestoreLockedCells compares with the cell as
# released and warns only about a locked cell the student edited.
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "minigrad_course.locked_cells.RestoreLockedCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# A right answer slower than the teacher's still finishes (nbgrader's default is 30 s a cell).
c.Execute.timeout = 300
# Grading that student code cannot subvert: in place of nbgrader's Execute, each submission
# runs in a sandbox (bubblewrap) that hands its answers over as data, and the hidden tests'
# verdict is reached here, where no student code runs (docs/teachers.md, "How grading stays
# fair"). The other steps are nbgrader's own, in nbgrader's order.
c.Autograde.autograde_preprocessors = [
    "minigrad_course.isolated_grading.GradeInIsolation",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# A submission's process may take this long in all (its cells together).
c.GradeInIsolation.timeout = 900

# `nbgrader zip_collect <set>` sorts a learning platform's download of the submissions,
# put in downloaded/<set>/archive/, into submitted/<student id>/<set>/ by each file's name
# (docs/teachers.md, "A class from a learning platform"). The names are Canvas's ("Download
# Submissions"): the student's name in lower case, "late" (either case) if handed in late,
# the student's Canvas user id, the file's own id, and the name the student gave the file,
# with "-1", "-2", ... before ".ipynb" for a file handed in again. The student id is the
# Canvas user id (the roster's `id` column), not the name part, which Canvas writes as it
# likes for names outside the Latin alphabet. nbgrader matches the whole path of each file
# extracted from the zip, hence the leading ".*/".
#   smithalice_12345_67890_01_gradients.ipynb       -> student 12345, 01_gradients.ipynb
#   petrov_late_12346_67891_01_gradients-1.ipynb    -> student 12346, 01_gradients.ipynb
c.FileNameCollectorPlugin.named_regexp = (
    r".*/[^/]*?_(?:late_|LATE_)?(?P<student_id>\d+)_\d+_(?P<file_id>[^/]+?)(?:-\d+)?\.ipynb$"
)
