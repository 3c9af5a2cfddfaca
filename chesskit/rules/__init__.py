"""The rules layer: positions, reading and explaining moves, tactics, search, engine,
openings and ratings. Uses only python-chess, ``chesskit.errors`` and ``chesskit.i18n``."""
