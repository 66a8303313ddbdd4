import sys

from minipaddle.distributed.launch import main

sys.exit(main())
