"""The analysis layer: tidy DataFrames, plotly figures, what-if studies, probability and
simulations over the core engine (pandas and plotly are allowed here, never below)."""
