"""The live classroom: the teacher opens a round, every student answers on their own board,
the class's moves appear live (issue 20; the protocol is docs/classroom-api.md).

``rounds`` (what a round asks, how answers are judged) · ``store`` (SQLite) · ``service`` (the
tornado application, on a hub or on the teacher's laptop) · ``laptop`` (``chesskit classroom``).
"""
