"""The rules as data: the :class:`~.model.Rules` model (read from ``resources/d100-rules.json``),
the effect notation (:mod:`.notation`) and how dice faces read (:mod:`.faces`)."""
