import sys

from d100gui.app import main

sys.exit(main())
