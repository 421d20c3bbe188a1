"""The macOS bundle's document types (its Info.plist keys), read by d100gui.spec's BUNDLE step.

Finder then opens a ``.d100`` campaign with d100gui on a double-click (the app receives it as a
``QFileOpenEvent``: d100gui/ui/desktop.py), and offers d100gui for JSON files (a campaign exported as
``.d100.json``, a table pack, a tile set). A test keeps these in step with the Linux MIME types in
io.github.d100gui.d100gui.mime.xml.
"""

from __future__ import annotations

from typing import Any


def document_types(app_id: str) -> dict[str, Any]:
    """``CFBundleDocumentTypes`` and ``UTExportedTypeDeclarations`` for the bundle's ``info_plist``."""
    campaign = f"{app_id}.campaign"
    return {
        "CFBundleDocumentTypes": [
            {
                "CFBundleTypeName": "D100 Dungeon campaign",
                "CFBundleTypeRole": "Editor",
                "LSHandlerRank": "Owner",
                "LSItemContentTypes": [campaign],
                "CFBundleTypeIconFile": "d100gui.icns",
            },
            {
                # a campaign exported as JSON, a table pack, a tile set: d100gui is offered, not the default
                "CFBundleTypeName": "JSON document",
                "CFBundleTypeRole": "Viewer",
                "LSHandlerRank": "Alternate",
                "LSItemContentTypes": ["public.json"],
            },
        ],
        "UTExportedTypeDeclarations": [
            {
                "UTTypeIdentifier": campaign,
                "UTTypeDescription": "D100 Dungeon campaign",
                "UTTypeConformsTo": ["public.database", "public.data"],
                "UTTypeIconFile": "d100gui.icns",
                "UTTypeTagSpecification": {
                    "public.filename-extension": ["d100"],
                    "public.mime-type": ["application/x-d100gui-campaign"],
                },
            }
        ],
    }
