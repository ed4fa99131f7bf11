"""Rule helpers, one module per concern; the step machine is in nidavellir.engine."""
