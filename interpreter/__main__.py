"""`python -m interpreter` is the `regles` command."""
import sys

from .tools.cli import main

sys.exit(main())
