"""The ipywidgets UI of the Nidavellir lab: thin panels over a Session model.

It sits above the engine and drives it only through its public API (Game.apply);
see shared/docs/ARCHITECTURE.md "Widgets layer".
"""
