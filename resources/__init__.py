"""Bundled data: table packs, tile sets, sheet layout. Plain files, loaded in one place."""
