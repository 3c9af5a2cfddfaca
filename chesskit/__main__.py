import sys

from chesskit.cli import main

sys.exit(main())
