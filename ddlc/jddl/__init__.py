"""The JDDL format itself: the template expander (the server's own rules) and the key spellings.

Shared by the frontend (which reads trees) and the GaussDB backend (which writes them).
"""
