"""import-linter contract types of this project (pyproject.toml's ``contract_types``).

``runtime_layers``: a ``layers`` contract checked on the imports that run. import-linter can leave
out the imports under ``if TYPE_CHECKING:`` only for every contract at once (its session option
``exclude_type_checking_imports``), and some contracts must refuse even those (the menus and the
roster's jobs reach the window through Protocols: not even a type-only import back). The engine's
floors need the opposite: the saved ``Campaign`` is composed above the features
(``d100gui/engine/campaign.py``), and the modules below it name it in annotations only, so their
type-only imports of it never run and do not count. This contract builds its own graph without
them (grimp, no cache) and checks the layers on it, ``ignore_imports`` and all.
"""

from __future__ import annotations

import grimp
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import ContractCheck

__all__ = ["RuntimeLayersContract"]


class RuntimeLayersContract(LayersContract):
    """A ``layers`` contract on the run-time import graph (imports under ``if TYPE_CHECKING:`` left out)."""

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        roots = list(self.session_options["root_packages"])
        external = str(self.session_options.get("include_external_packages", "")).lower() == "true"
        runtime = grimp.build_graph(
            *roots, include_external_packages=external, exclude_type_checking_imports=True, cache_dir=None
        )
        return super().check(runtime, verbose)
