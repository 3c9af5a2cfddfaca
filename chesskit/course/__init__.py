"""The course layer: building the notebooks from their sources (``notebooks``) and the
offline browser site (``site``)."""
