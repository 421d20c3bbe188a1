"""The Statistics view (issue 24): the campaign at a glance, plotted from the engine's statistics."""
