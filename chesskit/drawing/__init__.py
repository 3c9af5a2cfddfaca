"""The drawing layer: SVG boards with their text alternative (``diagram``), PNG and PDF
(``render``), and text measurement shared by both (``text``)."""
