"""The project's base model: every pydantic model of the engine and the storage inherits it.

Its one setting, ``defer_build``, makes pydantic build a model's validator and serializer when the model is
first used, not when its class is made: the app defines some 580 models and a start uses few of them. Set
here, on the class every model inherits (a model's own ``model_config`` is merged with it), the tests run
the same models the app ships.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A pydantic model whose validator is built on first use."""

    model_config = ConfigDict(defer_build=True)
