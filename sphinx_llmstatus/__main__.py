"""``python -m sphinx_llmstatus``: the ``llmstatus`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
