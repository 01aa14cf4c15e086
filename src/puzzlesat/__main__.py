"""``python -m puzzlesat`` works like the ``puzzlesat`` command."""

import sys

from .cli.main import main

sys.exit(main())
