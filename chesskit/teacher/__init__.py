"""The teacher layer: what a class hands in, reading answers without running code,
assignments, grading, the gradebook, reports, worksheets and homework."""
