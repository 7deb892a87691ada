"""The MkDocs face: ``plugins: [llmstatus]`` (see :mod:`.plugin`)."""
