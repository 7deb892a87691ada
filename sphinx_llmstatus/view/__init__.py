"""The view model: what a card, a table or a report holds, decided once, as plain data.

Renderers (text, HTML, Markdown, JSON) and the faces (Sphinx, the magic, the
command) only lay it out. No Sphinx, docutils, MkDocs or IPython here.
"""
