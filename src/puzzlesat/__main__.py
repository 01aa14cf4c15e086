"""``python -m puzzlesat`` works like the ``puzzlesat`` command."""

import sys

from .cli import main

sys.exit(main())
