"""Frontend: read JDDL documents from any input form and expand or build them."""
