"""The project's base model: every pydantic model of the engine and the storage inherits it.

Its one setting, ``defer_build``, makes pydantic build a model's validator and serializer when the model is
first used, not when its class is made: the app defines some 580 models and a start uses few of them. Set
here, on the class every model inherits (a model's own ``model_config`` is merged with it), the tests run
the same models the app ships. A list field's ``default_factory=list`` is given :func:`_new_list` instead
when its class is made (the same empty list, made by a Python function): building a validator asks each
default factory's signature, and the builtin ``list``'s is parsed from its text every time (~0.2 ms each,
some 120 fields on a start). Only public pydantic API: the class hook and the fields' ``default_factory``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A pydantic model whose validator is built on first use."""

    model_config = ConfigDict(defer_build=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: object) -> None:
        """A field whose default is a new empty list gets it from :func:`_new_list`, not the builtin ``list``
        (a field pydantic re-creates from a forward reference when the model is built keeps the builtin)."""
        super().__pydantic_init_subclass__(**kwargs)
        for field in cls.model_fields.values():
            if field.default_factory is list:
                field.default_factory = _new_list


def _new_list() -> list[object]:
    """A new empty list (the default of a list field)."""
    return []
