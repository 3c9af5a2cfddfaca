"""The board layer: the anywidget board (``board``), answers saved with a notebook
(``boardstate``) and practice games (``games``)."""
